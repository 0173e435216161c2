// A parameter map: two parameters of one kernel as the axes of a grid, each cell the best
// median time (or highest % of roof) among the cases with those two values, the other
// parameters free; the best cell of the grid marked.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include <QStringList>

#include "gui/core/case_data.hpp"

namespace memwall::gui {

enum class MapMetric { time, percent_of_roof };
QString metric_text(MapMetric m);  // "median time", "% of roof"

struct ParameterMap {
    QString x_axis, y_axis;
    QStringList x_values, y_values;  // numeric order when every value is a number
    MapMetric metric = MapMetric::time;
    std::vector<double> cells;                // y-major (cells[y * nx + x]); NaN when empty
    std::vector<const CaseRow*> cell_cases;   // the case giving each cell its value, or null
    std::optional<std::pair<int, int>> best;  // (x, y) of the best cell

    int nx() const { return static_cast<int>(x_values.size()); }
    int ny() const { return static_cast<int>(y_values.size()); }
    double value(int x, int y) const { return cells[static_cast<std::size_t>(y * nx() + x)]; }
    const CaseRow* cell_case(int x, int y) const { return cell_cases[static_cast<std::size_t>(y * nx() + x)]; }
};

// Parameters that take more than one value among `rows`: tunables first (what a map is usually
// for), then problem axes, each in first-seen order.
QStringList varying_params(const std::vector<const CaseRow*>& rows);

// Throws std::invalid_argument when the two axes are the same.
ParameterMap build_parameter_map(const std::vector<const CaseRow*>& rows, const QString& x_axis, const QString& y_axis,
                                 MapMetric metric);

}  // namespace memwall::gui
