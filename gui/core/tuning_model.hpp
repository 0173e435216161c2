// Tuning traces as a table: one row per evaluation (session and seed, strategy, evaluation,
// time or why it failed, best so far, configuration).
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "gui/core/tuning_traces.hpp"

namespace memwall::gui {

class TuningModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Session, Strategy, Evaluation, Time, BestSoFar, Configuration, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    using QAbstractTableModel::QAbstractTableModel;

    void set_traces(std::vector<TuningTrace> traces);
    const std::vector<TuningTrace>& traces() const { return traces_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<TuningTrace> traces_;
    std::vector<std::pair<std::size_t, std::size_t>> rows_;  // (trace, step)
};

}  // namespace memwall::gui
