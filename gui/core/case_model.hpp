// The cases of the selected runs, appended page by page as the loader delivers them. Rows are
// kept in a deque, so a CaseRow's address stays valid until clear() (charts point at rows).
#pragma once

#include <deque>
#include <map>
#include <set>
#include <vector>

#include <QAbstractTableModel>
#include <QHash>

#include "gui/core/case_data.hpp"

namespace memwall::gui {

enum class CaseField { family, variant, backend, status };

class CaseModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Run,
        Family,
        Variant,
        Backend,
        Parameters,
        Status,
        Time,
        FlopRate,
        ByteRate,
        Intensity,
        Bound,
        PercentOfRoof,
        BytesSource,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, CaseIdRole };

    using QAbstractTableModel::QAbstractTableModel;

    void clear();
    void append(const std::vector<CaseRow>& rows);

    const CaseRow& row(int i) const { return rows_[static_cast<std::size_t>(i)]; }
    int size() const { return static_cast<int>(rows_.size()); }
    // -1 when no row has this case id.
    int row_of(std::int64_t case_id) const { return index_.value(case_id, -1); }
    // The values present in the rows, sorted.
    QStringList values(CaseField f) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The figure of `column` to sort by (numbers ascending, untimed last); also SortRole.
    static QVariant sort_value(const CaseRow& r, int column);

  signals:
    // A family, variant, backend or status appeared that no earlier row had.
    void valuesChanged();

  private:
    std::deque<CaseRow> rows_;
    QHash<qint64, int> index_;
    std::map<CaseField, std::set<QString>> values_;
};

QString field_value(const CaseRow& r, CaseField f);

}  // namespace memwall::gui
