#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/plot.hpp"
#include "tests/support/synthetic_results.hpp"
#include "core/errors.hpp"

using namespace memwall;
using namespace memwall::gui;

class PlotTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("p.db")).toStdString();
        base_ = write_synthetic_run(db_, 400, 1, "base");
        run_ = write_synthetic_run(db_, 400, 2, "candidate");
        Store store = Store::open(db_, Store::Mode::read_write);
        test::add_session(store, test::replay_session("random", 1), {3e-3, 2e-3});
        live_ = test::add_session(store, test::live_session("guided"), {1e-3, std::nullopt, 0.5e-3});
        test::add_session(store, test::replay_session("guided", 1), {2e-3, 1e-3});
    }
    void every_chart_renders() {
        const ResultsReader reader(db_);
        for (const char* kind : {"roofline", "compare", "heatmap", "tuning"}) {
            PlotRequest q;
            q.kind = kind;
            q.run = run_;
            q.out = dir_.filePath(QStringLiteral("%1.png").arg(QLatin1String(kind))).toStdString();
            q.width = 900;
            q.height = 600;
            plot(reader, q);
            QImage img;
            QVERIFY2(img.load(QString::fromStdString(q.out)), kind);
            QCOMPARE(img.size(), QSize(900, 600));
        }
    }
    void chart_helpers() {
        const ResultsReader reader(db_);
        const auto runs = reader.runs();
        const auto rows = reader.cases(run_, runs[1].ceilings);
        const auto ptrs = pointers(rows);
        const QStringList mappable = mappable_kernels(ptrs);
        QCOMPARE(mappable.front(), QStringLiteral("attention/flash/cpu"));      // varies Br and Bc
        QCOMPARE(mappable.back(), QStringLiteral("attention/naive/cuda-emu"));  // no tunables
        const auto emu = rows_of_kernel(ptrs, QStringLiteral("attention/flash/cuda-emu"));
        QVERIFY(!emu.empty());
        for (const CaseRow* r : emu) QCOMPARE(r->backend, QStringLiteral("cuda-emu"));
        RooflineChart roof;
        configure_roofline(roof, runs[1], ptrs);
        QCOMPARE(roof.points().size(), rows.size());
        const auto base_rows = reader.cases(base_, runs[0].ceilings);
        const auto comparison = compare_now(reader, runs[0], pointers(base_rows), runs[1], ptrs, CompareOptions{});
        QCOMPARE(comparison.cases.size(), rows.size());  // the same grid in both runs
        const auto compared = compare_rows(comparison.cases, pointers(base_rows), ptrs);
        RooflineChart cmp;
        configure_compare(cmp, runs[0], runs[1], compared, comparison);
        QCOMPARE(cmp.points().size(), rows.size());
    }
    void cuda_cases_are_drawn_on_the_devices_roofs() {
        Ceilings all;
        all.items = {{"dram", CeilingKind::bandwidth, 20e9, "B/s", "measured, 3 working sets"},
                     {"fp32_fma", CeilingKind::compute, 1e12, "FLOP/s", "measured"},
                     {"cuda:dram", CeilingKind::bandwidth, 3.35e12, "B/s", "memory bandwidth (theoretical peak)"}};
        CaseRow gpu, host;
        gpu.backend = QStringLiteral("cuda");
        host.backend = QStringLiteral("cpu");
        const Ceilings on_gpu = roofs_for(all, {&gpu});
        QCOMPARE(on_gpu.items.size(), std::size_t(1));
        QCOMPARE(on_gpu.items[0].name, std::string("dram"));
        QCOMPARE(on_gpu.items[0].value, 3.35e12);
        // Mixed or empty: the host's roofs.
        QCOMPARE(roofs_for(all, {&gpu, &host}).items.size(), std::size_t(2));
        QCOMPARE(roofs_for(all, {}).find("dram")->value, 20e9);
        RunRow run;
        run.ceilings = all;
        RooflineChart chart;
        configure_roofline(chart, run, {&gpu});
        QCOMPARE(chart.ceilings().items.size(), std::size_t(1));
        QVERIFY(chart.subtitle().contains(QStringLiteral("theoretical device ceilings")));
    }
    void tuning_studies_by_session_or_name() {
        const ResultsReader reader(db_);
        const auto studies = tuning_studies(tuning_sessions(reader.store()));
        QCOMPARE(studies.size(), std::size_t(2));
        QCOMPARE(find_study(studies, ""), 0);  // the newest session is a replay
        QCOMPARE(find_study(studies, std::to_string(live_)), 1);
        QCOMPARE(find_study(studies, "FLASH"), 1);
        QCOMPARE(find_study(studies, "nothing"), -1);
        TuningChart chart;
        configure_tuning(chart, studies[0], study_traces(reader.store(), studies[0]));
        QCOMPARE(chart.traces().size(), std::size_t(2));
        QCOMPARE(chart.time_axis_title(), QStringLiteral("Best time (s), recorded on A100-PCIE-40GB"));
    }
    void requests_that_do_not_fit_are_usage_errors() {
        const ResultsReader reader(db_);
        PlotRequest q;
        q.run = base_;
        q.out = dir_.filePath(QStringLiteral("x.png")).toStdString();
        q.kind = "compare";  // the oldest run has nothing before it
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(reader, q));
        q.kind = "pie";
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(reader, q));
        q.kind = "roofline";
        q.level = "l3";
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(reader, q));
        q.level.clear();
        q.kind = "heatmap";
        q.x = "batch";  // never varies
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(reader, q));
        q.x.clear();
        q.kernel = "attention/none/cpu";
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(reader, q));
        q.kernel.clear();
        q.kind = "tuning";
        q.session = "no such session";
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(reader, q));
        q.session.clear();
        q.kind = "roofline";
        q.run = 99;
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(reader, q));
        QVERIFY(!QFile::exists(QString::fromStdString(q.out)));
        // A database without tuning sessions.
        const std::string bare = dir_.filePath(QStringLiteral("bare.db")).toStdString();
        write_synthetic_run(bare, 10);
        q.kind = "tuning";
        QVERIFY_THROWS_EXCEPTION(UsageError, plot(ResultsReader(bare), q));
    }

  private:
    QTemporaryDir dir_;
    std::string db_;
    std::int64_t base_ = 0, run_ = 0, live_ = 0;
};

QTEST_MAIN(PlotTest)
#include "plot_test.moc"
