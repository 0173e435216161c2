#include "gui/core/compare_model.hpp"

#include <algorithm>
#include <limits>

#include "gui/core/units.hpp"
#include "results/report.hpp"

namespace memwall::gui {

namespace {

// Both sides were timed and compared: the change, interval and p-value exist.
bool measured(const CompareRow& r) { return r.matched() && r.result.ci.hi > 0; }

QString side_text(const CaseRow* row, const SideStats& s, bool normalised) {
    if (!row) return {};
    if (!row->timed()) return qstr(to_string(row->status));
    QString t = seconds_text(row->median);
    if (normalised && s.percent_of_roof > 0) t += QStringLiteral(" (%1% roof)").arg(s.percent_of_roof, 0, 'f', 1);
    return t;
}

}  // namespace

void CompareModel::set_rows(std::vector<CompareRow> rows, const CompareOptions& options, bool normalised) {
    beginResetModel();
    rows_ = std::move(rows);
    options_ = options;
    normalised_ = normalised;
    endResetModel();
}

std::size_t CompareModel::count(Verdict v) const {
    return static_cast<std::size_t>(std::count_if(
        rows_.begin(), rows_.end(), [v](const CompareRow& r) { return r.matched() && r.result.verdict == v; }));
}

std::size_t CompareModel::unmatched() const {
    return static_cast<std::size_t>(
        std::count_if(rows_.begin(), rows_.end(), [](const CompareRow& r) { return !r.matched(); }));
}

int CompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const CompareRow& r = rows_[static_cast<std::size_t>(index.row())];
    const CaseComparison& x = r.result;
    const int c = index.column();
    if (role == CaseIdRole) {
        const CaseRow* row = r.candidate ? r.candidate : r.baseline;
        return QVariant::fromValue<qint64>(row->id);
    }
    if (role == Qt::ForegroundRole && c == VerdictColumn && r.matched()) return verdict_colour(x.verdict);
    if (role == Qt::ToolTipRole) {
        if (!r.matched())
            return r.label + QStringLiteral("\nnot in the ") + (r.candidate ? "baseline" : "candidate") + " run";
        QString tip = r.label + QStringLiteral("\n") + verdict_text(r) + QStringLiteral(": ") + qstr(x.reason);
        if (!x.basis.empty())
            tip += QStringLiteral("\nrank test on %1; %2 vs %3 samples")
                       .arg(qstr(x.basis))
                       .arg(x.base.n)
                       .arg(x.candidate.n);
        return tip;
    }
    if (role == Qt::TextAlignmentRole)
        return c == Case || c == VerdictColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) return sort_value(r, c);
    if (role != Qt::DisplayRole) return {};
    switch (c) {
        case Case: return r.label;
        case Baseline: return side_text(r.baseline, x.base, normalised_);
        case Candidate: return side_text(r.candidate, x.candidate, normalised_);
        case Change: return measured(r) ? qstr(format_change(x.ratio)) : QString();
        case Interval: return measured(r) ? qstr(format_interval(x.ci)) : QString();
        case PValue: return r.matched() && !x.basis.empty() ? qstr(format_p_value(x.p_value)) : QString();
        case VerdictColumn: return verdict_text(r);
        default: return {};
    }
}

QVariant CompareModel::sort_value(const CompareRow& r, int column) {
    const double missing = std::numeric_limits<double>::infinity();
    const CaseComparison& x = r.result;
    switch (column) {
        case Case: return r.label;
        case Baseline: return r.baseline && r.baseline->timed() ? r.baseline->median : missing;
        case Candidate: return r.candidate && r.candidate->timed() ? r.candidate->median : missing;
        case Change: return measured(r) ? x.ratio : missing;
        case Interval: return measured(r) ? x.ci.lo : missing;
        case PValue: return r.matched() && !x.basis.empty() ? x.p_value : missing;
        case VerdictColumn: return static_cast<double>(severity(r));
        default: return {};
    }
}

void CompareSortProxy::setSourceModel(QAbstractItemModel* source) {
    rows_ = qobject_cast<CompareModel*>(source);
    QSortFilterProxyModel::setSourceModel(source);
}

bool CompareSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (!rows_) return QSortFilterProxyModel::lessThan(left, right);
    const auto& rows = rows_->rows();
    const QVariant a = CompareModel::sort_value(rows[static_cast<std::size_t>(left.row())], left.column());
    const QVariant b = CompareModel::sort_value(rows[static_cast<std::size_t>(right.row())], right.column());
    if (a.typeId() == QMetaType::Double) {
        const double x = a.toDouble(), y = b.toDouble();
        return x != y ? x < y : left.row() < right.row();
    }
    const int c = QString::compare(a.toString(), b.toString(), Qt::CaseInsensitive);
    return c != 0 ? c < 0 : left.row() < right.row();
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Case: return QStringLiteral("Case");
        case Baseline: return QStringLiteral("Baseline");
        case Candidate: return QStringLiteral("Candidate");
        case Change: return QStringLiteral("Change");
        case Interval: return qstr(confidence_label(options_.alpha));
        case PValue: return QStringLiteral("p");
        case VerdictColumn: return QStringLiteral("Verdict");
        default: return {};
    }
}

}  // namespace memwall::gui
