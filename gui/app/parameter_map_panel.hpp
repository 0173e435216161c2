// The parameter map tab: a kernel, two of its parameters, the metric, and the heatmap (with
// the same grid as a table below it).
#pragma once

#include <vector>

#include <QComboBox>
#include <QTableView>
#include <QWidget>

#include "gui/app/chart_widget.hpp"
#include "gui/core/heatmap_chart.hpp"
#include "gui/core/parameter_map_model.hpp"

namespace memwall::gui {

class ParameterMapPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ParameterMapPanel(QWidget* parent = nullptr);

    void set_rows(const std::vector<const CaseRow*>& rows);
    HeatmapChart& chart() { return chart_; }
    ParameterMapModel& model() { return model_; }
    ChartWidget* view() const { return view_; }
    QComboBox* kernel() const { return kernel_; }
    QComboBox* x_axis() const { return x_; }
    QComboBox* y_axis() const { return y_; }
    QComboBox* metric() const { return metric_; }

  signals:
    void caseClicked(qint64 case_id);

  private:
    void refresh_axes();
    void rebuild();

    std::vector<const CaseRow*> rows_;
    HeatmapChart chart_;
    ParameterMapModel model_;
    QComboBox *kernel_, *x_, *y_, *metric_;
    ChartWidget* view_;
    QTableView* table_;
};

}  // namespace memwall::gui
