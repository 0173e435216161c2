#include "gui/core/case_model.hpp"

#include <limits>

#include "gui/core/roofline_chart.hpp"
#include "gui/core/units.hpp"

namespace memwall::gui {

QString field_value(const CaseRow& r, CaseField f) {
    switch (f) {
        case CaseField::family: return r.family;
        case CaseField::variant: return r.variant;
        case CaseField::backend: return r.backend;
        case CaseField::status: return qstr(to_string(r.status));
    }
    return {};
}

void CaseModel::clear() {
    beginResetModel();
    rows_.clear();
    index_.clear();
    values_.clear();
    endResetModel();
    emit valuesChanged();
}

void CaseModel::append(const std::vector<CaseRow>& rows) {
    if (rows.empty()) return;
    const int first = size();
    beginInsertRows({}, first, first + static_cast<int>(rows.size()) - 1);
    bool new_values = false;
    for (const CaseRow& r : rows) {
        index_.insert(r.id, size());
        rows_.push_back(r);
        for (const CaseField f : {CaseField::family, CaseField::variant, CaseField::backend, CaseField::status})
            new_values |= values_[f].insert(field_value(r, f)).second;
    }
    endInsertRows();
    if (new_values) emit valuesChanged();
}

QStringList CaseModel::values(CaseField f) const {
    QStringList out;
    const auto it = values_.find(f);
    if (it != values_.end())
        for (const QString& v : it->second) out << v;
    return out;
}

int CaseModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : size(); }

int CaseModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CaseModel::sort_value(const CaseRow& r, int column) {
    constexpr double untimed = std::numeric_limits<double>::infinity();
    const RooflinePoint& p = r.point;
    switch (column) {
        case Run: return QVariant::fromValue<qint64>(r.run_id);
        case Family: return r.family;
        case Variant: return r.variant;
        case Backend: return r.backend;
        case Parameters: return r.params_text;
        case Status: return qstr(to_string(r.status));
        case Time: return r.timed() ? r.median : untimed;
        case FlopRate: return r.timed() ? p.flops_per_second : -1.0;
        case ByteRate: return r.timed() && p.bounding_level() ? p.bounding_level()->bytes_per_second : -1.0;
        case Intensity: return p.flops > 0 && p.bounding_level() ? p.bounding_level()->intensity : -1.0;
        case Bound: return QString::fromStdString(p.bound);
        case PercentOfRoof: return p.valid ? p.percent_of_bound : -1.0;
        case BytesSource: return p.levels.empty() ? QString() : qstr(to_string(p.bounding_level()->source));
        default: return {};
    }
}

QVariant CaseModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const CaseRow& r = row(index.row());
    const int c = index.column();
    if (role == CaseIdRole) return QVariant::fromValue<qint64>(r.id);
    if (role == SortRole) return sort_value(r, c);
    if (role == Qt::ToolTipRole) return case_tooltip(r);
    if (role == Qt::TextAlignmentRole)
        return c >= Time && c != Bound && c != BytesSource ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role != Qt::DisplayRole) return {};
    const RooflinePoint& p = r.point;
    // Traffic and intensity at the level that bounds the case, as `memwall show` prints them.
    const RooflineLevel* at = r.timed() ? p.bounding_level() : nullptr;
    switch (c) {
        // The columns that sort by what they show.
        case Run:
        case Family:
        case Variant:
        case Backend:
        case Parameters:
        case Status: return sort_value(r, c);
        case Time: return r.timed() ? seconds_text(r.median) : QString();
        case FlopRate: return r.timed() && p.flops > 0 ? QString::number(p.flops_per_second / 1e9, 'f', 2) : QString();
        case ByteRate: return at ? QString::number(at->bytes_per_second / 1e9, 'f', 2) : QString();
        case Intensity: return at && p.flops > 0 ? QString::number(at->intensity, 'g', 3) : QString();
        case Bound: return p.valid ? ceiling_label(p.bound) : QString();
        case PercentOfRoof: return p.valid ? QString::number(p.percent_of_bound, 'f', 1) : QString();
        case BytesSource:
            return at ? qstr(to_string(at->source)) + QLatin1Char(':') + QString::fromStdString(at->level) : QString();
        default: return {};
    }
}

QVariant CaseModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[ColumnCount] = {
        "Run",  "Family", "Variant", "Backend",   "Parameters",          "Status", "Time (median)", "GFLOP/s",
        "GB/s", "FLOP/B", "Bound",   "% of roof", "Bytes (source:level)"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(kNames[section]) : QVariant();
}

}  // namespace memwall::gui
