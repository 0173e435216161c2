// The compare tab: a baseline run chosen from the database, the table of changes, intervals,
// p-values and verdicts of memwall compare's rule, and the candidate's roofline with arrows from
// each baseline point. The candidate is the run selected in the runs panel; both sides pass
// through the cases table's filters. The comparison runs in the background (a Comparer).
#pragma once

#include <functional>
#include <vector>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QWidget>

#include "gui/app/chart_widget.hpp"
#include "gui/core/case_loader.hpp"
#include "gui/core/compare_model.hpp"
#include "gui/core/comparer.hpp"
#include "gui/core/roofline_chart.hpp"

namespace memwall::gui {

class ComparePanel : public QWidget {
    Q_OBJECT
  public:
    explicit ComparePanel(QWidget* parent = nullptr);

    // A new database: the baseline choices; the baseline is loaded when first needed.
    void set_database(const QString& path, const std::vector<RunRow>& runs);
    // The candidate run, its cases that pass the filters, and the filter to apply to the baseline.
    void set_candidate(const RunRow* run, const std::vector<const CaseRow*>& rows,
                       std::function<bool(const CaseRow&)> accept);
    // Loads `run_id` as the baseline (asynchronously; comparisonReady follows).
    void set_baseline(std::int64_t run_id);
    // The baseline loading or the comparison running.
    bool loading() const { return loader_.busy() || comparer_.busy(); }
    // memwall compare's defaults, with --cross-device as ticked.
    CompareOptions options() const;

    RooflineChart& chart() { return chart_; }
    CompareModel& model() { return model_; }
    ChartWidget* view() const { return view_; }
    QTableView* table() const { return table_; }
    QComboBox* baseline() const { return baseline_; }
    QCheckBox* cross_device() const { return cross_device_; }
    QLabel* summary() const { return summary_; }

  signals:
    void caseClicked(qint64 case_id);
    // A comparison finished, or could not be made (the summary says why).
    void comparisonReady();

  private:
    void recompute();
    void show_result(std::shared_ptr<RunComparison> comparison);
    void clear_result();
    const RunRow* baseline_run() const;

    QString path_;
    std::vector<RunRow> runs_;
    const RunRow* candidate_run_ = nullptr;
    std::vector<const CaseRow*> candidate_rows_;
    std::function<bool(const CaseRow&)> accept_;
    std::int64_t baseline_id_ = 0;
    std::vector<CaseRow> loading_rows_, baseline_rows_;
    CaseLoader loader_;
    Comparer comparer_;
    // The rows of the comparison in flight or shown.
    std::vector<const CaseRow*> compared_base_, compared_candidate_;

    RooflineChart chart_;
    CompareModel model_;
    CompareSortProxy sorted_;
    QComboBox* baseline_;
    QCheckBox* cross_device_;
    QLabel* summary_;
    QLabel* warnings_;
    QTableView* table_;
    ChartWidget* view_;
};

}  // namespace memwall::gui
