#include "gui/app/compare_panel.hpp"

#include <algorithm>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLocale>
#include <QSplitter>
#include <QVBoxLayout>

#include "gui/core/plot.hpp"
#include "gui/core/run_model.hpp"
#include "results/report.hpp"

namespace memwall::gui {

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent),
      baseline_(new QComboBox(this)),
      cross_device_(new QCheckBox(QStringLiteral("Cross-device: normalise by each run's roofline"), this)),
      summary_(new QLabel(this)),
      warnings_(new QLabel(this)),
      table_(new QTableView(this)),
      view_(new ChartWidget(chart_, this)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Baseline run:"), this));
    bar->addWidget(baseline_, 1);
    bar->addWidget(cross_device_);
    bar->addWidget(summary_, 2);
    layout->addLayout(bar);
    cross_device_->setToolTip(
        QStringLiteral("memwall compare --cross-device: compare runs of different devices or backends, "
                       "each case as the fraction of its run's bounding roof it reaches"));
    summary_->setToolTip(qstr(verdict_rule(options())));
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("color: #8a5a00"));
    warnings_->hide();
    layout->addWidget(warnings_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    sorted_.setSourceModel(&model_);
    sorted_.setSortRole(CompareModel::SortRole);
    table_->setModel(&sorted_);
    // Unsorted until a header is clicked: the rows come worst first, and sorting a large
    // comparison on every arrival would stall the window.
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);
    table_->verticalHeader()->setDefaultSectionSize(22);
    split->addWidget(table_);
    split->addWidget(view_);
    split->setSizes({700, 700});
    layout->addWidget(split, 1);
    connect(baseline_, &QComboBox::activated, this,
            [this](int i) { set_baseline(baseline_->itemData(i).toLongLong()); });
    connect(cross_device_, &QCheckBox::toggled, this, [this] { recompute(); });
    connect(view_, &ChartWidget::caseClicked, this, &ComparePanel::caseClicked);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& i) { emit caseClicked(sorted_.data(i, CompareModel::CaseIdRole).toLongLong()); });
    connect(&loader_, &CaseLoader::pageLoaded, this, [this](const std::vector<CaseRow>& rows) {
        loading_rows_.insert(loading_rows_.end(), rows.begin(), rows.end());
    });
    connect(&loader_, &CaseLoader::finished, this, [this] {
        baseline_rows_ = std::move(loading_rows_);
        loading_rows_.clear();
        recompute();
    });
    connect(&loader_, &CaseLoader::failed, this, [this](const QString& message) {
        summary_->setText(QStringLiteral("baseline not loaded: ") + message);
        emit comparisonReady();
    });
    connect(&comparer_, &Comparer::progress, this, [this](qint64 done, qint64 total) {
        summary_->setText(
            QStringLiteral("comparing… %1 of %2 cases").arg(QLocale().toString(done), QLocale().toString(total)));
    });
    connect(&comparer_, &Comparer::finished, this, &ComparePanel::show_result);
    connect(&comparer_, &Comparer::failed, this, [this](const QString& message) {
        clear_result();
        summary_->setText(QStringLiteral("cannot compare: ") + message);
        emit comparisonReady();
    });
}

CompareOptions ComparePanel::options() const {
    CompareOptions o;
    o.cross_device = cross_device_->isChecked();
    return o;
}

void ComparePanel::set_database(const QString& path, const std::vector<RunRow>& runs) {
    loader_.cancel();
    comparer_.set_database(path);
    path_ = path;
    runs_ = runs;
    candidate_run_ = nullptr;
    candidate_rows_.clear();
    baseline_id_ = 0;
    clear_result();
    baseline_rows_.clear();
    summary_->clear();
    const QSignalBlocker block(baseline_);
    baseline_->clear();
    for (auto it = runs_.rbegin(); it != runs_.rend(); ++it)
        baseline_->addItem(run_title(it->info), QVariant::fromValue<qint64>(it->info.id));
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

const RunRow* ComparePanel::baseline_run() const {
    for (const RunRow& r : runs_)
        if (r.info.id == baseline_id_) return &r;
    return nullptr;
}

void ComparePanel::set_baseline(std::int64_t run_id) {
    baseline_id_ = run_id;
    const int i = baseline_->findData(QVariant::fromValue<qint64>(run_id));
    if (i >= 0) {
        const QSignalBlocker block(baseline_);
        baseline_->setCurrentIndex(i);
    }
    const RunRow* r = baseline_run();
    if (!r) return;
    comparer_.cancel();
    clear_result();  // its rows are about to go
    baseline_rows_.clear();
    loading_rows_.clear();
    summary_->setText(QStringLiteral("loading baseline run %1…").arg(run_id));
    loader_.start(path_, {*r});
}

void ComparePanel::clear_result() {
    model_.set_rows({});
    chart_.set_cases({});
    chart_.set_arrows({}, {});
    warnings_->hide();
    view_->update();
}

void ComparePanel::recompute() {
    comparer_.cancel();
    const RunRow* base = baseline_run();
    if (!base || !candidate_run_ || loader_.busy()) {
        // Nothing to compare yet: drop every pointer into rows that may be about to go.
        clear_result();
        if (!candidate_run_)
            summary_->setText(QStringLiteral("the run selected is compared once its cases are loaded"));
        return;
    }
    // The rows shown stay valid until the new comparison replaces them: the baseline's are
    // ours, and the candidate's go only through set_candidate(nullptr) or a new database.
    compared_base_.clear();
    for (const CaseRow& r : baseline_rows_)
        if (!accept_ || accept_(r)) compared_base_.push_back(&r);
    compared_candidate_ = candidate_rows_;
    summary_->setText(QStringLiteral("comparing %1 against %2 cases…")
                          .arg(QLocale().toString(static_cast<qint64>(compared_candidate_.size())),
                               QLocale().toString(static_cast<qint64>(compared_base_.size()))));
    comparer_.start(*base, compared_base_, *candidate_run_, compared_candidate_, options());
}

void ComparePanel::show_result(std::shared_ptr<RunComparison> result) {
    const RunComparison& comparison = *result;
    const RunRow* base = baseline_run();
    std::vector<CompareRow> rows = compare_rows(std::move(result->cases), compared_base_, compared_candidate_);
    configure_compare(chart_, *base, *candidate_run_, rows, comparison);
    summary_->setText(QStringLiteral("run %1 against run %2: %3")
                          .arg(candidate_run_->info.id)
                          .arg(base->info.id)
                          .arg(verdict_summary(rows)));
    summary_->setToolTip(qstr(verdict_rule(comparison.options, comparison.paired)));
    QStringList warnings;
    for (const std::string& w : comparison.warnings) warnings << QStringLiteral("⚠ ") + qstr(w);
    warnings_->setText(warnings.join(QLatin1Char('\n')));
    warnings_->setVisible(!warnings.isEmpty());
    model_.set_rows(std::move(rows), comparison.options, comparison.normalised);
    table_->resizeColumnsToContents();
    table_->setColumnWidth(CompareModel::Case, std::min(table_->columnWidth(CompareModel::Case), 260));
    view_->update();
    emit comparisonReady();
}

}  // namespace memwall::gui
