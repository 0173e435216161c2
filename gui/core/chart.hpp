// What every chart of the explorer offers: painting into any QPainter (a widget, a PNG, an
// SVG), and the interactions a widget forwards, in the pixel space of the area painted.
#pragma once

#include <cstdint>
#include <optional>

#include <QPainter>
#include <QPointF>
#include <QRectF>
#include <QString>

namespace memwall::gui {

class Chart {
  public:
    virtual ~Chart() = default;
    virtual void paint(QPainter& p, const QRectF& area) const = 0;

    virtual QString tooltip_at(const QPointF& /*pixel*/, const QRectF& /*area*/) const { return {}; }
    // The case drawn under `pixel`, for selection in the cases table.
    virtual std::optional<std::int64_t> case_at(const QPointF& /*pixel*/, const QRectF& /*area*/) const {
        return std::nullopt;
    }
    // Zoom by `factor` (> 1 zooms in) about `pixel`, or pan by `delta` pixels; false when the
    // chart has no zoomable view.
    virtual bool zoom(double /*factor*/, const QPointF& /*pixel*/, const QRectF& /*area*/) { return false; }
    virtual bool pan(const QPointF& /*delta*/, const QRectF& /*area*/) { return false; }
    virtual void reset_view() {}
};

}  // namespace memwall::gui
