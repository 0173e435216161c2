// Best-so-far time against evaluations for one tuning session, every strategy overlaid as a
// step line in its own colour, each evaluation's own time as a faint dot.
#pragma once

#include <vector>

#include "gui/core/axis_mapping.hpp"
#include "gui/core/chart.hpp"
#include "gui/core/tuning_traces.hpp"

namespace memwall::gui {

class TuningChart : public Chart {
public:
    void set_title(const QString& title, const QString& subtitle);
    // The traces to draw (those of one session, typically); they are copied.
    void set_traces(std::vector<TuningTrace> traces) { traces_ = std::move(traces); }
    const std::vector<TuningTrace>& traces() const { return traces_; }

    // Throws std::logic_error when there is no ok evaluation to scale the time axis.
    PlotMapping mapping(const QRectF& area) const;

    void paint(QPainter& p, const QRectF& area) const override;
    QString tooltip_at(const QPointF& pixel, const QRectF& area) const override;
    std::optional<std::int64_t> case_at(const QPointF& pixel, const QRectF& area) const override;

private:
    bool has_times() const;
    const TuningStep* step_at(const QPointF& pixel, const QRectF& area, const TuningTrace** trace) const;

    QString title_ = QStringLiteral("Tuning"), subtitle_;
    std::vector<TuningTrace> traces_;
};

}  // namespace memwall::gui
