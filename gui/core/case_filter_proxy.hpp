// Filters and sorts the cases table: a text filter (plain, case-insensitive substring, or a
// regular expression) over kernel, parameters, status and message, and allowed values of
// family, variant, backend and status. Reads CaseModel rows directly, so 100,000 rows filter
// and sort in milliseconds rather than through QVariant.
#pragma once

#include <map>
#include <vector>

#include <QRegularExpression>
#include <QSet>
#include <QSortFilterProxyModel>

#include "gui/core/case_model.hpp"

namespace memwall::gui {

class CaseFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit CaseFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* source) override;
    CaseModel* cases() const { return cases_; }

    // Returns false (and keeps the previous filter) when `regex` is set and `text` is not a
    // valid regular expression; error() then says why.
    bool set_text(const QString& text, bool regex);
    const QString& error() const { return error_; }
    // Only rows whose field is in `allowed`; an empty set allows all.
    void set_allowed(CaseField f, const QSet<QString>& allowed);

    // Whether a row (of this model or another run's) passes the filters.
    bool accepts(const CaseRow& r) const;
    // The source rows that pass, in the proxy's order.
    std::vector<const CaseRow*> visible_rows() const;

  protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

  private:
    void refilter();

    CaseModel* cases_ = nullptr;
    QString text_;
    QRegularExpression regex_;
    bool use_regex_ = false;
    QString error_;
    std::map<CaseField, QSet<QString>> allowed_;
};

}  // namespace memwall::gui
