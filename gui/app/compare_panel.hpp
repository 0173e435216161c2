// The compare tab: a baseline run chosen from the database, the table of ratios and verdicts,
// and the candidate's roofline with arrows from each baseline point. The candidate is the run
// selected in the runs panel; both sides pass through the cases table's filters.
#pragma once

#include <functional>
#include <vector>

#include <QComboBox>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QWidget>

#include "gui/app/chart_widget.hpp"
#include "gui/core/case_loader.hpp"
#include "gui/core/compare_model.hpp"
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
    bool loading() const { return loader_.busy(); }

    RooflineChart& chart() { return chart_; }
    CompareModel& model() { return model_; }
    ChartWidget* view() const { return view_; }
    QTableView* table() const { return table_; }
    QComboBox* baseline() const { return baseline_; }

signals:
    void caseClicked(qint64 case_id);
    void comparisonReady();

private:
    void recompute();

    QString path_;
    std::vector<RunRow> runs_;
    const RunRow* candidate_run_ = nullptr;
    std::vector<const CaseRow*> candidate_rows_;
    std::function<bool(const CaseRow&)> accept_;
    std::int64_t baseline_id_ = 0;
    std::vector<CaseRow> loading_rows_, baseline_rows_;
    CaseLoader loader_;

    RooflineChart chart_;
    CompareModel model_;
    QSortFilterProxyModel sorted_;
    QComboBox* baseline_;
    QLabel* summary_;
    QTableView* table_;
    ChartWidget* view_;
};

}  // namespace memwall::gui
