// The runs of a database, one row each: id, start, host, device, backend, tags, cases, status.
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "gui/core/case_data.hpp"

namespace memwall::gui {

class RunModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Id, Started, Host, Device, Backend, Tags, Cases, Status, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, RunIdRole };

    using QAbstractTableModel::QAbstractTableModel;

    void set_runs(std::vector<RunRow> runs);
    const std::vector<RunRow>& runs() const { return runs_; }
    // nullptr when no run has this id.
    const RunRow* run(std::int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<RunRow> runs_;
};

// "key=value, key=value"
QString tags_text(const RunInfo& r);
// "run 3 · 2024-05-01 12:34 · host · cpu"
QString run_title(const RunInfo& r);

}  // namespace memwall::gui
