// The parameter map painted as a heatmap: a perceptual colour scale (viridis; the better end
// bright), values in the cells when they fit, the best cell outlined, and a colour bar.
#pragma once

#include <QColor>

#include "gui/core/chart.hpp"
#include "gui/core/parameter_map.hpp"

namespace memwall::gui {

// Viridis at t in [0, 1].
QColor viridis(double t);
// The colour of `value` in `map` (better values brighter); grey for an empty cell.
QColor heat_colour(const ParameterMap& map, double value);
// The value of a cell as text: a time with its unit, or a percentage.
QString cell_text(const ParameterMap& map, double value);

class HeatmapChart : public Chart {
  public:
    void set_title(const QString& title, const QString& subtitle);
    void set_map(ParameterMap map) { map_ = std::move(map); }
    const ParameterMap& map() const { return map_; }

    // The rectangle of cell (x, y) when painted in `area`.
    QRectF cell_rect(int x, int y, const QRectF& area) const;

    void paint(QPainter& p, const QRectF& area) const override;
    QString tooltip_at(const QPointF& pixel, const QRectF& area) const override;
    std::optional<std::int64_t> case_at(const QPointF& pixel, const QRectF& area) const override;

  private:
    std::optional<std::pair<int, int>> cell_at(const QPointF& pixel, const QRectF& area) const;
    QRectF grid_rect(const QRectF& area) const;

    QString title_ = QStringLiteral("Parameter map"), subtitle_;
    ParameterMap map_;
};

}  // namespace memwall::gui
