// The tuner tab: a session, its strategies' best-so-far curves, and its evaluations as a table.
#pragma once

#include <vector>

#include <QComboBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QWidget>

#include "gui/app/chart_widget.hpp"
#include "gui/core/tuning_chart.hpp"
#include "gui/core/tuning_model.hpp"

namespace memwall::gui {

class TuningPanel : public QWidget {
    Q_OBJECT
public:
    explicit TuningPanel(QWidget* parent = nullptr);

    // Tuning sessions found among `rows` (today: sweeps over tunable axes).
    void set_rows(const std::vector<const CaseRow*>& rows);
    void set_traces(std::vector<TuningTrace> traces);
    TuningChart& chart() { return chart_; }
    TuningModel& model() { return model_; }
    ChartWidget* view() const { return view_; }
    QComboBox* session() const { return session_; }

signals:
    void caseClicked(qint64 case_id);

private:
    void show_session();

    TuningChart chart_;
    TuningModel model_;
    QSortFilterProxyModel session_rows_;
    QComboBox* session_;
    ChartWidget* view_;
    QTableView* table_;
};

}  // namespace memwall::gui
