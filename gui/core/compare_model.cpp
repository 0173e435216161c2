#include "gui/core/compare_model.hpp"

#include <algorithm>
#include <limits>

#include "gui/core/units.hpp"

namespace memwall::gui {

void CompareModel::set_rows(std::vector<CompareRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

std::size_t CompareModel::count(Verdict v) const {
    return static_cast<std::size_t>(std::count_if(rows_.begin(), rows_.end(), [v](const CompareRow& r) { return r.verdict == v; }));
}

int CompareModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int CompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const CompareRow& r = rows_[static_cast<std::size_t>(index.row())];
    const int c = index.column();
    const double missing = std::numeric_limits<double>::infinity();
    if (role == CaseIdRole) {
        const CaseRow* row = r.candidate ? r.candidate : r.baseline;
        return QVariant::fromValue<qint64>(row->id);
    }
    if (role == Qt::ForegroundRole && c == VerdictColumn) return verdict_colour(r.verdict);
    if (role == Qt::TextAlignmentRole)
        return c == Baseline || c == Candidate || c == Ratio ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == SortRole) {
        switch (c) {
        case Case: return r.label;
        case Baseline: return r.baseline_median > 0 ? r.baseline_median : missing;
        case Candidate: return r.candidate_median > 0 ? r.candidate_median : missing;
        case Ratio: return r.ratio > 0 ? r.ratio : missing;
        case VerdictColumn: return static_cast<int>(r.verdict);
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (c) {
    case Case: return r.label;
    case Baseline: return r.baseline_median > 0 ? seconds_text(r.baseline_median) : QString();
    case Candidate: return r.candidate_median > 0 ? seconds_text(r.candidate_median) : QString();
    case Ratio: return r.ratio > 0 ? QStringLiteral("%1×").arg(r.ratio, 0, 'f', 3) : QString();
    case VerdictColumn: return verdict_text(r.verdict);
    default: return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[ColumnCount] = {"Case", "Baseline", "Candidate", "Cand/base", "Verdict"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(kNames[section]) : QVariant();
}

}  // namespace memwall::gui
