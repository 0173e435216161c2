#include "gui/core/tuning_model.hpp"

#include <cmath>
#include <limits>

#include "gui/core/units.hpp"

namespace memwall::gui {

void TuningModel::set_traces(std::vector<TuningTrace> traces) {
    beginResetModel();
    traces_ = std::move(traces);
    rows_.clear();
    for (std::size_t t = 0; t < traces_.size(); ++t)
        for (std::size_t s = 0; s < traces_[t].steps.size(); ++s) rows_.emplace_back(t, s);
    endResetModel();
}

int TuningModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TuningModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TuningModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const auto [t, s] = rows_[static_cast<std::size_t>(index.row())];
    const TuningTrace& trace = traces_[t];
    const TuningStep& step = trace.steps[s];
    const double missing = std::numeric_limits<double>::infinity();
    if (role == Qt::TextAlignmentRole)
        return index.column() == Evaluation || index.column() == Time || index.column() == BestSoFar
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Time && std::isnan(step.seconds)) return step.status;
    if (role == SortRole) {
        switch (index.column()) {
            case Session: return QVariant::fromValue<qint64>(trace.session);
            case Strategy: return trace.strategy;
            case Evaluation: return step.evaluation;
            case Configuration: return step.config;
            case Time: return std::isnan(step.seconds) ? missing : step.seconds;
            case BestSoFar: return std::isnan(step.best_seconds) ? missing : step.best_seconds;
            default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Session: return QStringLiteral("%1 (seed %2)").arg(trace.session).arg(trace.seed);
        case Strategy: return trace.strategy;
        case Evaluation: return step.evaluation;
        case Configuration: return step.config;
        case Time:
            return std::isnan(step.seconds) ? step.status.section(QLatin1Char(':'), 0, 0) : seconds_text(step.seconds);
        case BestSoFar: return std::isnan(step.best_seconds) ? QString() : seconds_text(step.best_seconds);
        default: return {};
    }
}

QVariant TuningModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[ColumnCount] = {"Session", "Strategy",    "Evaluation",
                                                    "Time",    "Best so far", "Configuration"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(kNames[section]) : QVariant();
}

}  // namespace memwall::gui
