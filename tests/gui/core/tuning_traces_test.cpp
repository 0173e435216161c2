#include <cmath>

#include <QTemporaryDir>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/tuning_traces.hpp"

using namespace memwall;
using namespace memwall::gui;

class TuningTracesTest : public QObject {
    Q_OBJECT
  private slots:
    void sessions_become_studies_and_traces() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Store store = Store::open(dir.filePath(QStringLiteral("t.db")).toStdString(), Store::Mode::create);
        const std::int64_t r1 =
            test::add_session(store, test::replay_session("random", 1), {std::nullopt, 3e-3, 5e-3, 2e-3, 4e-3});
        test::add_session(store, test::live_session("guided"), {1e-3, 2e-3});
        test::add_session(store, test::replay_session("guided", 1), {2e-3, 1e-3});
        TuningSessionInfo predicted = test::live_session("guided");
        predicted.device = "H100 SXM";
        predicted.time_source = TimeSource::predicted;
        test::add_session(store, predicted, {1e-4});
        test::add_session(store, test::replay_session("random", 2), {4e-3});

        const auto studies = tuning_studies(tuning_sessions(store));
        QCOMPARE(studies.size(), std::size_t(3));  // the replays, the measured and the predicted attention
        QCOMPARE(studies[0].name(), QStringLiteral("convolution · A100-PCIE-40GB · replay"));
        QCOMPARE(studies[0].problem, QString());
        QCOMPARE(studies[0].time_label, QStringLiteral("recorded on A100-PCIE-40GB"));
        QCOMPARE(studies[0].sessions.size(), std::size_t(3));
        QCOMPARE(studies[1].name(), QStringLiteral("attention/flash seq=512 · cpu0 · cpu"));
        QCOMPARE(studies[1].kernel, QStringLiteral("attention/flash"));
        QCOMPARE(studies[1].time_label, QStringLiteral("measured"));
        QVERIFY(studies[2].time_label.startsWith(QStringLiteral("predicted")));
        QVERIFY(studies[2].time_label.contains(QStringLiteral("H100 SXM")));
        QCOMPARE(newest_study(studies), 0);  // random seed 2 came last
        QCOMPARE(newest_study({}), -1);

        const auto traces = study_traces(store, studies[0]);
        QCOMPARE(traces.size(), std::size_t(3));
        const TuningTrace& t = traces[0];
        QCOMPARE(t.session, r1);
        QCOMPARE(t.strategy, QStringLiteral("random"));
        QCOMPARE(t.name, QStringLiteral("session %1 · random · seed 1").arg(r1));
        QCOMPARE(t.steps.size(), std::size_t(5));
        QVERIFY(std::isnan(t.steps[0].seconds));
        QVERIFY(std::isnan(t.steps[0].best_seconds));
        QCOMPARE(t.steps[0].status, QStringLiteral("runtime_failed: too many resources requested"));
        QCOMPARE(t.steps[1].best_seconds, 3e-3);
        QCOMPARE(t.steps[2].best_seconds, 3e-3);
        QCOMPARE(t.steps[3].best_seconds, 2e-3);
        QCOMPARE(t.steps[4].best_seconds, 2e-3);
        QCOMPARE(t.steps[4].evaluation, 5);
        QCOMPARE(t.steps[4].config, QStringLiteral("Br=80"));
        QCOMPARE(t.steps[4].status, QStringLiteral("ok"));
        QCOMPARE(traces[1].strategy, QStringLiteral("guided"));
    }
};

QTEST_GUILESS_MAIN(TuningTracesTest)
#include "tuning_traces_test.moc"
