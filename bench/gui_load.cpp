// memwall-gui under load: a synthetic database of two runs of 100,000 cases (made once, then
// reused) opened in the explorer's window. Reports the time to the first painted rows of the
// cases table, to all rows loaded, the longest stall of the event loop while loading, the
// latency of text filters (filter applied and the table repainted), and the compare view: the
// newest run against the one before by memwall compare's rule, computed off the UI thread, with
// the longest stall while it loads and compares. Targets: first paint <= 2 s, filter <= 200 ms.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTimer>

#include "gui/app/main_window.hpp"
#include "gui/core/results_reader.hpp"
#include "tests/support/synthetic_results.hpp"

namespace {

using memwall::gui::MainWindow;

// Counts paints of a widget (the cases table's viewport).
class PaintCounter : public QObject {
  public:
    int paints = 0;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint) ++paints;
        return QObject::eventFilter(o, e);
    }
};

// Runs the event loop until `done` or `limit_ms`; false on timeout.
template <class Pred>
bool spin(Pred done, int limit_ms = 60000) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > limit_ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

double seconds(const QElapsedTimer& t) { return static_cast<double>(t.elapsed()) / 1e3; }

bool has_runs_of(const std::string& path, std::size_t cases) {
    if (!std::filesystem::exists(path)) return false;
    try {
        const auto runs = memwall::gui::ResultsReader(path).runs();
        return runs.size() == 2 && runs[0].cases == cases && runs[1].cases == cases;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    std::size_t cases = 100000;
    std::string db = (std::filesystem::temp_directory_path() / "memwall_gui_load_100k.db").string();
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--cases")
            cases = std::stoul(argv[i + 1]);
        else if (a == "--db")
            db = argv[i + 1];
    }
    if (!has_runs_of(db, cases)) {
        std::filesystem::remove(db);
        QElapsedTimer t;
        t.start();
        memwall::gui::write_synthetic_run(db, cases, 1, "base");
        memwall::gui::write_synthetic_run(db, cases, 2, "candidate");
        std::printf("wrote 2 runs of %zu synthetic cases to %s in %.1f s\n", cases, db.c_str(), seconds(t));
    }

    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);  // the recent-files list is not the user's
    MainWindow w;
    w.show();
    spin([&] { return w.isVisible(); });
    PaintCounter counter;
    w.cases_view()->viewport()->installEventFilter(&counter);

    // The event loop's longest gap while loading: what a user would feel as a freeze.
    QElapsedTimer tick;
    qint64 longest_stall = 0;
    QTimer heartbeat;
    heartbeat.setInterval(5);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] { longest_stall = std::max(longest_stall, tick.restart()); });

    QElapsedTimer clock;
    clock.start();
    tick.start();
    heartbeat.start();
    bool loaded = false;
    QObject::connect(&w, &MainWindow::loaded, [&] { loaded = true; });
    if (!w.open_database(QString::fromStdString(db))) {
        std::fprintf(stderr, "gui_load: %s\n", qPrintable(w.last_error()));
        return 1;
    }
    const int paints_before = counter.paints;
    spin([&] { return w.cases().size() > 0 && counter.paints > paints_before; });
    const double first_paint = seconds(clock);
    spin([&] { return loaded; });
    const double all_loaded = seconds(clock);
    heartbeat.stop();
    const qint64 loading_stall = longest_stall;
    QElapsedTimer chart;
    chart.start();
    w.refresh_now();
    w.roofline()->view()->repaint();
    const double roofline_ms = static_cast<double>(chart.elapsed());

    const std::vector<std::pair<QString, bool>> filters{
        {QStringLiteral("flash"), false},      {QStringLiteral("cuda-emu"), false},
        {QStringLiteral("seq_q=512 "), false}, {QStringLiteral("Br=(16|32)\\b"), true},
        {QStringLiteral("heads=7 "), false},   {QString(), false}};
    std::vector<double> latencies;
    std::printf("\nfilter latency (filter applied and the table repainted):\n");
    for (const auto& [text, regex] : filters) {
        const int before = counter.paints;
        QElapsedTimer t;
        t.start();
        {
            // One user action: the box's own toggle would filter once more with the old text.
            const QSignalBlocker quiet(w.filter_bar()->regex());
            w.filter_bar()->regex()->setChecked(regex);
        }
        w.filter_bar()->text()->setText(text);
        w.filter_bar()->apply_text();
        spin([&] { return counter.paints > before; }, 10000);
        latencies.push_back(static_cast<double>(t.elapsed()));
        std::printf("  %-16s %7d rows shown  %6.0f ms\n", text.isEmpty() ? "(cleared)" : qPrintable(text),
                    w.proxy().rowCount(), latencies.back());
    }
    const double worst_filter = *std::max_element(latencies.begin(), latencies.end());

    bool compared = false;
    QObject::connect(w.compare(), &memwall::gui::ComparePanel::comparisonReady, [&] { compared = true; });
    longest_stall = 0;
    QElapsedTimer compare_clock;
    compare_clock.start();
    tick.start();
    heartbeat.start();
    w.tabs()->setCurrentIndex(MainWindow::CompareTab);
    if (!spin([&] { return compared; }, 600000)) {
        std::fprintf(stderr, "gui_load: the comparison did not finish in 10 minutes\n");
        return 1;
    }
    const double compare_seconds = seconds(compare_clock);
    heartbeat.stop();
    const qint64 compare_stall = longest_stall;

    std::printf("\nmemwall-gui with %zu cases (%s)\n", cases, db.c_str());
    std::printf("  first paint of the cases table  %6.2f s   target <= 2 s     %s\n", first_paint,
                first_paint <= 2 ? "met" : "MISSED");
    std::printf("  all cases loaded                %6.2f s\n", all_loaded);
    std::printf("  longest event-loop stall        %6lld ms  (while loading)\n", static_cast<long long>(loading_stall));
    std::printf("  roofline of all cases drawn     %6.0f ms\n", roofline_ms);
    std::printf("  worst filter latency            %6.0f ms  target <= 200 ms  %s\n", worst_filter,
                worst_filter <= 200 ? "met" : "MISSED");
    std::printf(
        "  compare view, %d rows           %6.1f s   (baseline loaded, samples read, bootstrap on %u threads)\n",
        w.compare()->model().rowCount(), compare_seconds, std::max(1u, std::thread::hardware_concurrency()));
    std::printf("  longest event-loop stall        %6lld ms  (while comparing)\n",
                static_cast<long long>(compare_stall));
    std::printf("  %s\n", qPrintable(w.compare()->summary()->text()));
    return 0;
}
