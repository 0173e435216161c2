#include <cmath>

#include <QTest>

#include "fixtures.hpp"
#include "gui/core/tuning_traces.hpp"

using namespace memwall;
using namespace memwall::gui;

class TuningTracesTest : public QObject {
    Q_OBJECT
private slots:
    void best_so_far() {
        const double nan = std::nan("");
        const TuningTrace t = make_trace(QStringLiteral("s"), QStringLiteral("random"), {nan, 3, 5, 2, 4});
        QCOMPARE(t.steps.size(), std::size_t(5));
        QVERIFY(std::isnan(t.steps[0].best_seconds));
        QCOMPARE(t.steps[1].best_seconds, 3.0);
        QCOMPARE(t.steps[2].best_seconds, 3.0);
        QCOMPARE(t.steps[3].best_seconds, 2.0);
        QCOMPARE(t.steps[4].best_seconds, 2.0);
        QCOMPARE(t.steps[4].evaluation, 5);
        QVERIFY(!t.steps[0].row);
    }
    void sweeps_become_sessions() {
        std::vector<CaseRow> rows{
            test::row({.id = 5, .problem = R"({"seq":512})", .config = R"({"Br":64})", .median = 3e-3}),
            test::row({.id = 2, .problem = R"({"seq":512})", .config = R"({"Br":16})", .median = 4e-3}),
            test::row({.id = 7, .problem = R"({"seq":512})", .config = R"({"Br":32})", .median = 0, .status = CaseStatus::failed}),
            test::row({.id = 3, .problem = R"({"seq":1024})", .config = R"({"Br":16})", .median = 1e-3}),  // one config: no session
            test::row({.id = 9, .run = 2, .problem = R"({"seq":512})", .config = R"({"Br":16})", .median = 1e-3}),
            test::row({.id = 10, .run = 2, .problem = R"({"seq":512})", .config = R"({"Br":32})", .median = 2e-3}),
        };
        const auto traces = sweep_traces(test::ptrs(rows));
        QCOMPARE(traces.size(), std::size_t(2));
        const TuningTrace& t = traces[0];
        QCOMPARE(t.strategy, kSweepStrategy);
        QCOMPARE(t.session, QStringLiteral("attention/flash/cpu seq=512 (run 1)"));
        QCOMPARE(t.steps.size(), std::size_t(3));
        QCOMPARE(t.steps[0].row->id, 2);  // in the order measured
        QCOMPARE(t.steps[1].best_seconds, 3e-3);
        QVERIFY(std::isnan(t.steps[2].seconds));
        QCOMPARE(t.steps[2].best_seconds, 3e-3);
        QCOMPARE(traces[1].session, QStringLiteral("attention/flash/cpu seq=512 (run 2)"));
        QCOMPARE(sessions(traces).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TuningTracesTest)
#include "tuning_traces_test.moc"
