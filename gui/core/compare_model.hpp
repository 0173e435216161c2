// The compare table: one row per case of the baseline or candidate run, with the verdict of
// memwall compare's rule (its reason as the tooltip), the change (candidate / baseline), its
// confidence interval, the rank test's p-value, and both median times.
#pragma once

#include <vector>

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "gui/core/compare.hpp"

namespace memwall::gui {

class CompareModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Case, VerdictColumn, Change, Interval, PValue, Baseline, Candidate, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, CaseIdRole };  // CaseIdRole: the candidate's id, else the baseline's

    using QAbstractTableModel::QAbstractTableModel;

    // `options` name the interval's confidence; `normalised`: the times come with % of roof.
    void set_rows(std::vector<CompareRow> rows, const CompareOptions& options = {}, bool normalised = false);
    const std::vector<CompareRow>& rows() const { return rows_; }
    // Matched rows with this verdict.
    std::size_t count(Verdict v) const;
    // Rows in one run only.
    std::size_t unmatched() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The value of `column` to sort by (numbers ascending, missing ones last); also SortRole.
    static QVariant sort_value(const CompareRow& r, int column);

  private:
    std::vector<CompareRow> rows_;
    CompareOptions options_;
    bool normalised_ = false;
};

// Sorts a CompareModel reading its rows directly rather than through data(), so a comparison of
// 100,000 cases sorts in tens of milliseconds; ties keep the model's order.
class CompareSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setSourceModel(QAbstractItemModel* source) override;

  protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

  private:
    CompareModel* rows_ = nullptr;
};

}  // namespace memwall::gui
