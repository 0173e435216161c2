#include "gui/app/compare_panel.hpp"

#include <algorithm>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QSplitter>
#include <QVBoxLayout>

#include "gui/core/plot.hpp"
#include "gui/core/run_model.hpp"

namespace memwall::gui {

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent), baseline_(new QComboBox(this)), summary_(new QLabel(this)), table_(new QTableView(this)),
      view_(new ChartWidget(chart_, this)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Baseline run:"), this));
    bar->addWidget(baseline_, 1);
    bar->addWidget(summary_, 2);
    layout->addLayout(bar);
    auto* split = new QSplitter(Qt::Horizontal, this);
    sorted_.setSourceModel(&model_);
    sorted_.setSortRole(CompareModel::SortRole);
    table_->setModel(&sorted_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);
    table_->verticalHeader()->setDefaultSectionSize(22);
    split->addWidget(table_);
    split->addWidget(view_);
    split->setSizes({620, 780});
    layout->addWidget(split, 1);
    connect(baseline_, &QComboBox::activated, this, [this](int i) { set_baseline(baseline_->itemData(i).toLongLong()); });
    connect(view_, &ChartWidget::caseClicked, this, &ComparePanel::caseClicked);
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
        emit caseClicked(sorted_.data(i, CompareModel::CaseIdRole).toLongLong());
    });
    connect(&loader_, &CaseLoader::pageLoaded, this,
            [this](const std::vector<CaseRow>& rows) { loading_rows_.insert(loading_rows_.end(), rows.begin(), rows.end()); });
    connect(&loader_, &CaseLoader::finished, this, [this] {
        baseline_rows_ = std::move(loading_rows_);
        loading_rows_.clear();
        recompute();
    });
    connect(&loader_, &CaseLoader::failed, this, [this](const QString& message) {
        summary_->setText(QStringLiteral("baseline not loaded: ") + message);
    });
}

void ComparePanel::set_database(const QString& path, const std::vector<RunRow>& runs) {
    loader_.cancel();
    path_ = path;
    runs_ = runs;
    candidate_run_ = nullptr;
    candidate_rows_.clear();
    baseline_id_ = 0;
    model_.set_rows({});
    baseline_rows_.clear();
    const QSignalBlocker block(baseline_);
    baseline_->clear();
    for (auto it = runs_.rbegin(); it != runs_.rend(); ++it) baseline_->addItem(run_title(it->info), QVariant::fromValue<qint64>(it->info.id));
}

void ComparePanel::set_candidate(const RunRow* run, const std::vector<const CaseRow*>& rows,
                                 std::function<bool(const CaseRow&)> accept) {
    candidate_run_ = run;
    candidate_rows_ = rows;
    accept_ = std::move(accept);
    if (baseline_id_ == 0 && run) {
        // Default baseline: the run before the candidate, else the candidate itself.
        std::int64_t choice = run->info.id;
        for (const RunRow& r : runs_)
            if (r.info.id < run->info.id) choice = r.info.id;
        set_baseline(choice);
        return;
    }
    recompute();
}

void ComparePanel::set_baseline(std::int64_t run_id) {
    baseline_id_ = run_id;
    const int i = baseline_->findData(QVariant::fromValue<qint64>(run_id));
    if (i >= 0) {
        const QSignalBlocker block(baseline_);
        baseline_->setCurrentIndex(i);
    }
    for (const RunRow& r : runs_) {
        if (r.info.id != run_id) continue;
        model_.set_rows({});
        chart_.set_arrows({}, {});
        baseline_rows_.clear();
        loading_rows_.clear();
        summary_->setText(QStringLiteral("loading baseline run %1…").arg(run_id));
        loader_.start(path_, {r});
        return;
    }
}

void ComparePanel::recompute() {
    const RunRow* base = nullptr;
    for (const RunRow& r : runs_)
        if (r.info.id == baseline_id_) base = &r;
    if (!base || !candidate_run_ || loader_.busy()) {
        // Nothing to compare yet: drop every pointer into rows that may be about to go.
        model_.set_rows({});
        chart_.set_cases({});
        chart_.set_arrows({}, {});
        view_->update();
        return;
    }
    std::vector<const CaseRow*> base_rows;
    for (const CaseRow& r : baseline_rows_)
        if (!accept_ || accept_(r)) base_rows.push_back(&r);
    std::vector<CompareRow> rows = compare_cases(base_rows, candidate_rows_);
    configure_compare(chart_, *base, *candidate_run_, rows);
    model_.set_rows(std::move(rows));
    summary_->setText(QStringLiteral("run %1 against run %2: %3 faster, %4 slower, %5 same")
                          .arg(candidate_run_->info.id)
                          .arg(base->info.id)
                          .arg(model_.count(Verdict::faster))
                          .arg(model_.count(Verdict::slower))
                          .arg(model_.count(Verdict::same)));
    table_->resizeColumnsToContents();
    table_->setColumnWidth(CompareModel::Case, std::min(table_->columnWidth(CompareModel::Case), 220));
    view_->update();
    emit comparisonReady();
}

}  // namespace memwall::gui
