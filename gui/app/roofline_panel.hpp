// The roofline tab: the level the points are placed at, which roofs show, and the chart.
#pragma once

#include <optional>
#include <vector>

#include <QComboBox>
#include <QHBoxLayout>
#include <QWidget>

#include "gui/app/chart_widget.hpp"
#include "gui/core/roofline_chart.hpp"

namespace memwall::gui {

class RooflinePanel : public QWidget {
    Q_OBJECT
  public:
    explicit RooflinePanel(QWidget* parent = nullptr);

    // `run` gives the roofs (the ceilings); `rows` are the cases to place.
    void set_data(const RunRow* run, const std::vector<const CaseRow*>& rows);
    void set_selected(std::optional<std::int64_t> case_id);
    RooflineChart& chart() { return chart_; }
    ChartWidget* view() const { return view_; }
    QComboBox* level() const { return level_; }

  signals:
    void caseClicked(qint64 case_id);

  private:
    void rebuild_controls();

    RooflineChart chart_;
    ChartWidget* view_;
    QComboBox* level_;
    QHBoxLayout* roofs_;
    std::vector<std::string> roof_names_;
    std::vector<const CaseRow*> rows_;
};

}  // namespace memwall::gui
