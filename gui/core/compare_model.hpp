// The compare table: one row per case of the baseline or candidate run, with both median
// times, the ratio (candidate / baseline) and the verdict.
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "gui/core/compare.hpp"

namespace memwall::gui {

class CompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Case, Baseline, Candidate, Ratio, VerdictColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, CaseIdRole };  // CaseIdRole: the candidate's id, else the baseline's

    using QAbstractTableModel::QAbstractTableModel;

    void set_rows(std::vector<CompareRow> rows);
    const std::vector<CompareRow>& rows() const { return rows_; }
    // Rows per verdict, for the summary line.
    std::size_t count(Verdict v) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<CompareRow> rows_;
};

}  // namespace memwall::gui
