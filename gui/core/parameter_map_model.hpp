// A parameter map as a table: rows are the y axis's values, columns the x axis's; each cell
// shows its value, is coloured like the heatmap, and names its case in the tooltip.
#pragma once

#include <QAbstractTableModel>

#include "gui/core/parameter_map.hpp"

namespace memwall::gui {

class ParameterMapModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Role { ValueRole = Qt::UserRole + 1, BestRole };

    using QAbstractTableModel::QAbstractTableModel;

    void set_map(ParameterMap map);
    const ParameterMap& map() const { return map_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    ParameterMap map_;
};

}  // namespace memwall::gui
