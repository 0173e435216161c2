#include "gui/app/main_window.hpp"

#include <algorithm>
#include <exception>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

#include "gui/core/chart_export.hpp"
#include "gui/core/results_reader.hpp"

namespace memwall::gui {

namespace {

constexpr int kRecentFiles = 8;
const QString kRecentKey = QStringLiteral("recentFiles");

QTableView* make_table(QWidget* parent) {
    auto* t = new QTableView(parent);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSortingEnabled(true);
    t->setAlternatingRowColors(true);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(22);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    return t;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      runs_view_(make_table(this)),
      cases_view_(make_table(this)),
      filter_(nullptr),
      tabs_(new QTabWidget(this)),
      roofline_(new RooflinePanel(this)),
      compare_(new ComparePanel(this)),
      map_(new ParameterMapPanel(this)),
      tuning_(new TuningPanel(this)),
      status_(new QLabel(this)) {
    setWindowTitle(QStringLiteral("memwall-gui"));
    setAcceptDrops(true);
    resize(1400, 900);

    runs_sorted_.setSourceModel(&runs_);
    runs_sorted_.setSortRole(RunModel::SortRole);
    runs_view_->setModel(&runs_sorted_);
    runs_view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    runs_view_->sortByColumn(RunModel::Id, Qt::DescendingOrder);
    auto* dock = new QDockWidget(QStringLiteral("Runs"), this);
    dock->setObjectName(QStringLiteral("runsDock"));
    dock->setWidget(runs_view_);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::TopDockWidgetArea, dock);
    resizeDocks({dock}, {150}, Qt::Vertical);

    proxy_.setSourceModel(&cases_);
    cases_view_->setModel(&proxy_);
    cases_view_->setSelectionMode(QAbstractItemView::SingleSelection);
    cases_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    cases_view_->setColumnWidth(CaseModel::Parameters, 360);
    filter_ = new FilterBar(proxy_, this);

    auto* table_box = new QWidget(this);
    auto* table_layout = new QVBoxLayout(table_box);
    table_layout->setContentsMargins(4, 4, 4, 0);
    table_layout->addWidget(filter_);
    table_layout->addWidget(cases_view_, 1);
    tabs_->addTab(roofline_, QStringLiteral("Roofline"));
    tabs_->addTab(compare_, QStringLiteral("Compare"));
    tabs_->addTab(map_, QStringLiteral("Parameter map"));
    tabs_->addTab(tuning_, QStringLiteral("Tuner"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_box);
    split->addWidget(tabs_);
    split->setSizes({240, 560});
    setCentralWidget(split);
    statusBar()->addWidget(status_, 1);
    build_menus();

    refresh_.setSingleShot(true);
    refresh_.setInterval(200);
    since_refresh_.start();
    connect(&refresh_, &QTimer::timeout, this, [this] { refresh_tab(tabs_->currentIndex()); });
    connect(runs_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::runs_selected);
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab >= 0 && stale_[static_cast<std::size_t>(tab)]) refresh_tab(tab);
    });
    connect(filter_, &FilterBar::filtersChanged, this, [this] {
        std::fill(stale_.begin(), stale_.end(), true);
        refresh_.start();
        update_status();
    });
    connect(&loader_, &CaseLoader::pageLoaded, this, [this](const std::vector<CaseRow>& rows) {
        const bool first = cases_.size() == 0;
        cases_.append(rows);
        std::fill(stale_.begin(), stale_.end(), true);
        // Charts redraw from every shown case: while a large run loads, only now and then.
        if (first || since_refresh_.elapsed() > 2000) refresh_.start();
        update_status();
    });
    connect(&loader_, &CaseLoader::finished, this, [this](qint64 n) {
        loading_done_ = true;
        cases_view_->resizeColumnToContents(CaseModel::Family);
        cases_view_->resizeColumnToContents(CaseModel::Variant);
        refresh_now();
        update_status();
        emit loaded(n);
    });
    connect(&loader_, &CaseLoader::failed, this, [this](const QString& message) {
        loading_done_ = true;
        update_status();
        show_error(message);
    });
    connect(cases_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { roofline_->set_selected(selected_case()); });
    const auto select = [this](qint64 id) { select_case(id); };
    connect(roofline_, &RooflinePanel::caseClicked, this, select);
    connect(compare_, &ComparePanel::caseClicked, this, select);
    connect(map_, &ParameterMapPanel::caseClicked, this, select);
    update_status();
}

void MainWindow::build_menus() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QAction* open = file->addAction(QStringLiteral("&Open…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, QStringLiteral("Open a memwall database"), QString(),
                                         QStringLiteral("memwall databases (*.db *.sqlite);;All files (*)"));
        if (!path.isEmpty()) open_database(path);
    });
    recent_menu_ = file->addMenu(QStringLiteral("Open &Recent"));
    rebuild_recent_menu();
    QAction* exp = file->addAction(QStringLiteral("&Export chart…"));
    exp->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    connect(exp, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, QStringLiteral("Export chart"), QStringLiteral("chart.png"),
                                         QStringLiteral("PNG image (*.png);;SVG image (*.svg)"));
        if (!path.isEmpty()) export_chart(path);
    });
    file->addSeparator();
    QAction* quit = file->addAction(QStringLiteral("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

bool MainWindow::open_database(const QString& path) {
    std::vector<RunRow> runs;
    std::vector<TuningStudy> studies;
    try {
        const ResultsReader reader(path.toStdString());
        runs = reader.runs();
        studies = tuning_studies(tuning_sessions(reader.store()));
    } catch (const std::exception& e) {
        show_error(QString::fromStdString(e.what()));
        return false;
    }
    loader_.cancel();
    selected_runs_.clear();
    roofline_->set_data(nullptr, {});
    compare_->set_database(path, runs);
    map_->set_rows({});
    tuning_->set_database(path, std::move(studies));
    cases_.clear();
    path_ = path;
    last_error_.clear();
    runs_.set_runs(std::move(runs));
    runs_view_->resizeColumnsToContents();
    setWindowTitle(QStringLiteral("memwall-gui — ") + QFileInfo(path).fileName());
    remember(QFileInfo(path).absoluteFilePath());
    if (!runs_.runs().empty()) select_runs({runs_.runs().back().info.id});
    update_status();
    return true;
}

void MainWindow::show_error(const QString& message) {
    last_error_ = message;
    statusBar()->showMessage(message, 10000);
    // Non-modal, so a test or a script driving the window is never blocked by it.
    auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("memwall-gui"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::remember(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kRecentFiles) recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
    recent_menu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        connect(recent_menu_->addAction(path), &QAction::triggered, this, [this, path] { open_database(path); });
    recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::select_runs(const std::vector<std::int64_t>& ids) {
    QItemSelection selection;
    for (int row = 0; row < runs_sorted_.rowCount(); ++row) {
        const QModelIndex i = runs_sorted_.index(row, 0);
        if (std::find(ids.begin(), ids.end(), runs_sorted_.data(i, RunModel::RunIdRole).toLongLong()) != ids.end())
            selection.select(i, runs_sorted_.index(row, RunModel::ColumnCount - 1));
    }
    runs_view_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void MainWindow::runs_selected() {
    std::vector<std::int64_t> ids;
    for (const QModelIndex& i : runs_view_->selectionModel()->selectedRows())
        ids.push_back(runs_sorted_.data(i, RunModel::RunIdRole).toLongLong());
    std::sort(ids.begin(), ids.end(), std::greater<>());  // newest first: it gives the roofs
    if (ids == selected_runs_) return;
    selected_runs_ = ids;
    loader_.cancel();
    // The panels drop their pointers into the rows before the rows go.
    roofline_->set_data(nullptr, {});
    compare_->set_candidate(nullptr, {}, {});
    map_->set_rows({});
    cases_.clear();
    loading_done_ = ids.empty();
    std::fill(stale_.begin(), stale_.end(), true);
    std::vector<RunRow> targets;
    for (const std::int64_t id : ids)
        if (const RunRow* r = runs_.run(id)) targets.push_back(*r);
    if (!targets.empty()) loader_.start(path_, targets);
    update_status();
}

const RunRow* MainWindow::primary_run() const {
    return selected_runs_.empty() ? nullptr : runs_.run(selected_runs_.front());
}

std::vector<const CaseRow*> MainWindow::rows_of_run(const std::vector<const CaseRow*>& rows, std::int64_t run) const {
    std::vector<const CaseRow*> out;
    for (const CaseRow* r : rows)
        if (r->run_id == run) out.push_back(r);
    return out;
}

void MainWindow::refresh_now() {
    refresh_.stop();
    refresh_tab(tabs_->currentIndex());
}

void MainWindow::refresh_tab(int tab) {
    if (tab < 0) return;
    since_refresh_.start();
    const std::vector<const CaseRow*> rows = proxy_.visible_rows();
    const RunRow* run = primary_run();
    switch (tab) {
        case RooflineTab: roofline_->set_data(run, rows); break;
        case CompareTab:
            // Compared once all the run's cases are in: each page would restart the bootstrap.
            if (!loading_done_) return;
            compare_->set_candidate(run, run ? rows_of_run(rows, run->info.id) : std::vector<const CaseRow*>{},
                                    [this](const CaseRow& r) { return proxy_.accepts(r); });
            break;
        case ParameterMapTab: map_->set_rows(rows); break;
        case TuningTab: break;  // sessions, not cases: shown when the database opens
        default: return;
    }
    stale_[static_cast<std::size_t>(tab)] = false;
}

void MainWindow::update_status() {
    if (path_.isEmpty()) {
        status_->setText(QStringLiteral("Open a memwall database (File > Open, or drop it here)"));
        return;
    }
    status_->setText(QStringLiteral("%1 · %2 runs · %3 cases loaded%4 · %5 shown")
                         .arg(QFileInfo(path_).fileName())
                         .arg(runs_.runs().size())
                         .arg(cases_.size())
                         .arg(loading_done_ ? QString() : QStringLiteral(" (loading…)"))
                         .arg(proxy_.rowCount()));
}

bool MainWindow::select_case(std::int64_t case_id) {
    const int row = cases_.row_of(case_id);
    if (row < 0) return false;
    const QModelIndex shown = proxy_.mapFromSource(cases_.index(row, 0));
    if (!shown.isValid()) {
        statusBar()->showMessage(QStringLiteral("case %1 is hidden by the filters").arg(case_id), 5000);
        return false;
    }
    cases_view_->selectRow(shown.row());
    cases_view_->scrollTo(shown);
    return true;
}

std::optional<std::int64_t> MainWindow::selected_case() const {
    const QModelIndexList rows = cases_view_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return std::nullopt;
    return proxy_.data(rows.front(), CaseModel::CaseIdRole).toLongLong();
}

Chart& MainWindow::current_chart() {
    switch (tabs_->currentIndex()) {
        case CompareTab: return compare_->chart();
        case ParameterMapTab: return map_->chart();
        case TuningTab: return tuning_->chart();
        default: return roofline_->chart();
    }
}

void MainWindow::export_chart(const QString& path) {
    try {
        save_chart(current_chart(), path);
        statusBar()->showMessage(QStringLiteral("saved ") + path, 5000);
    } catch (const std::exception& e) {
        show_error(QString::fromStdString(e.what()));
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QMimeData* m = event->mimeData();
    if (m->hasUrls() && !m->urls().isEmpty() && m->urls().front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    event->acceptProposedAction();
    open_database(urls.front().toLocalFile());
}

}  // namespace memwall::gui
