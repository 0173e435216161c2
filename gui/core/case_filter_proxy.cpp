#include "gui/core/case_filter_proxy.hpp"

#include <stdexcept>

namespace memwall::gui {

CaseFilterProxy::CaseFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(CaseModel::SortRole);
    setDynamicSortFilter(true);
}

void CaseFilterProxy::setSourceModel(QAbstractItemModel* source) {
    auto* cases = qobject_cast<CaseModel*>(source);
    if (source && !cases) throw std::invalid_argument("CaseFilterProxy filters a CaseModel");
    cases_ = cases;
    QSortFilterProxyModel::setSourceModel(source);
}

bool CaseFilterProxy::set_text(const QString& text, bool regex) {
    if (regex) {
        QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            error_ = QStringLiteral("invalid regular expression: %1 at offset %2")
                         .arg(re.errorString())
                         .arg(re.patternErrorOffset());
            return false;
        }
        re.optimize();
        regex_ = re;
    }
    error_.clear();
    text_ = text;
    use_regex_ = regex;
    refilter();
    return true;
}

void CaseFilterProxy::set_allowed(CaseField f, const QSet<QString>& allowed) {
    allowed_[f] = allowed;
    refilter();
}

void CaseFilterProxy::refilter() {
    // invalidateFilter() tells views about every contiguous range that came or went: tens of
    // thousands of signals when a filter thins 100,000 rows, each relaying out the view.
    // invalidate() rebuilds the mapping and sends one layout change.
    invalidate();
}

bool CaseFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    if (!cases_ || source_parent.isValid()) return true;
    return accepts(cases_->row(source_row));
}

bool CaseFilterProxy::accepts(const CaseRow& r) const {
    for (const auto& [field, allowed] : allowed_)
        if (!allowed.isEmpty() && !allowed.contains(field_value(r, field))) return false;
    if (text_.isEmpty()) return true;
    if (use_regex_) return regex_.match(r.search_text).hasMatch();
    return r.search_text.contains(text_, Qt::CaseInsensitive);
}

bool CaseFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (!cases_) return QSortFilterProxyModel::lessThan(left, right);
    const CaseRow& a = cases_->row(left.row());
    const CaseRow& b = cases_->row(right.row());
    const QVariant va = CaseModel::sort_value(a, left.column()), vb = CaseModel::sort_value(b, right.column());
    if (va.typeId() == QMetaType::Double) {
        const double x = va.toDouble(), y = vb.toDouble();
        return x != y ? x < y : a.id < b.id;
    }
    if (va.typeId() == QMetaType::LongLong) {
        const qint64 x = va.toLongLong(), y = vb.toLongLong();
        return x != y ? x < y : a.id < b.id;
    }
    const int c = QString::compare(va.toString(), vb.toString(), Qt::CaseInsensitive);
    return c != 0 ? c < 0 : a.id < b.id;
}

std::vector<const CaseRow*> CaseFilterProxy::visible_rows() const {
    std::vector<const CaseRow*> out;
    if (!cases_) return out;
    const int n = rowCount();
    out.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) out.push_back(&cases_->row(mapToSource(index(i, 0)).row()));
    return out;
}

}  // namespace memwall::gui
