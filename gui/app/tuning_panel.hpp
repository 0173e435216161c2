// The tuner tab: a tuning study (one kernel and problem tuned on one device and backend), the
// best-so-far curves of its sessions coloured by strategy, and their evaluations as a table.
// Sessions come from the database's tuning sessions, not from the runs selected.
#pragma once

#include <vector>

#include <QComboBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QWidget>

#include "gui/app/chart_widget.hpp"
#include "gui/core/tuning_chart.hpp"
#include "gui/core/tuning_model.hpp"
#include "gui/core/tuning_traces.hpp"

namespace memwall::gui {

class TuningPanel : public QWidget {
    Q_OBJECT
  public:
    explicit TuningPanel(QWidget* parent = nullptr);

    // The studies of the database at `path`; shows the newest session's study (its trials are
    // read when a study is shown).
    void set_database(const QString& path, std::vector<TuningStudy> studies);
    void show_study(int index);
    const std::vector<TuningStudy>& studies() const { return studies_; }

    TuningChart& chart() { return chart_; }
    TuningModel& model() { return model_; }
    ChartWidget* view() const { return view_; }
    QComboBox* study() const { return study_; }

  private:
    QString path_;
    std::vector<TuningStudy> studies_;
    TuningChart chart_;
    TuningModel model_;
    QSortFilterProxyModel sorted_;
    QComboBox* study_;
    ChartWidget* view_;
    QTableView* table_;
};

}  // namespace memwall::gui
