#include "gui/core/parameter_map_model.hpp"

#include <cmath>

#include "gui/core/heatmap_chart.hpp"
#include "gui/core/roofline_chart.hpp"

namespace memwall::gui {

void ParameterMapModel::set_map(ParameterMap map) {
    beginResetModel();
    map_ = std::move(map);
    endResetModel();
}

int ParameterMapModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : map_.ny(); }

int ParameterMapModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : map_.nx(); }

QVariant ParameterMapModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int x = index.column(), y = index.row();
    const double v = map_.value(x, y);
    const bool best = map_.best && map_.best->first == x && map_.best->second == y;
    switch (role) {
        case Qt::DisplayRole:
            return std::isnan(v) ? QString() : cell_text(map_, v) + (best ? QStringLiteral(" ★") : QString());
        case ValueRole: return std::isnan(v) ? QVariant() : QVariant(v);
        case BestRole: return best;
        case Qt::BackgroundRole: return heat_colour(map_, v);
        case Qt::ForegroundRole: {
            const QColor bg = heat_colour(map_, v);
            return bg.lightnessF() > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
        }
        case Qt::ToolTipRole: {
            const CaseRow* c = map_.cell_case(x, y);
            return c ? case_tooltip(*c)
                     : QStringLiteral("no timed case with %1=%2, %3=%4")
                           .arg(map_.x_axis, map_.x_values[x], map_.y_axis, map_.y_values[y]);
        }
        case Qt::TextAlignmentRole: return QVariant(Qt::AlignCenter);
        default: return {};
    }
}

QVariant ParameterMapModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    const QStringList& values = orientation == Qt::Horizontal ? map_.x_values : map_.y_values;
    const QString& axis = orientation == Qt::Horizontal ? map_.x_axis : map_.y_axis;
    if (section < 0 || section >= values.size()) return {};
    return axis + QLatin1Char('=') + values[section];
}

}  // namespace memwall::gui
