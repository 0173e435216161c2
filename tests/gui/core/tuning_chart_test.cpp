#include <cmath>

#include <QTest>

#include "fixtures.hpp"
#include "gui/core/chart_export.hpp"
#include "gui/core/tuning_chart.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

TuningTrace trace(const std::string& strategy, const std::vector<std::optional<double>>& seconds) {
    std::vector<TrialRecord> trials;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        TrialRecord t;
        t.index = static_cast<std::int64_t>(i);
        t.config = R"({"Br":)" + std::to_string(16 * (i + 1)) + "}";
        t.seconds = seconds[i];
        if (!seconds[i]) t.status = "runtime_failed";
        trials.push_back(t);
    }
    return make_trace(test::replay_session(strategy, 1), trials);
}

}  // namespace

class TuningChartTest : public QObject {
    Q_OBJECT
  private slots:
    void strategies_share_the_axes() {
        TuningChart chart;
        chart.set_traces({trace("random", {8e-3, 5e-3, 6e-3}), trace("guided", {4e-3, 2e-3, std::nullopt, 1e-3, 3e-3})},
                         QStringLiteral("recorded on A100-PCIE-40GB"));
        QCOMPARE(chart.time_axis_title(), QStringLiteral("Best time (s), recorded on A100-PCIE-40GB"));
        const QRectF area(0, 0, 1000, 700);
        const PlotMapping m = chart.mapping(area);
        QVERIFY(m.x.lo() <= 1 && m.x.hi() >= 5);
        QVERIFY(m.y.lo() <= 1e-3 && m.y.hi() >= 8e-3);
        QCOMPARE(m.y.scale(), Scale::log);
        // Hovering reaches the evaluation under the pointer: its session, time and configuration.
        const QString tip = chart.tooltip_at(m.to_pixel(2, 5e-3), area);
        QVERIFY2(tip.startsWith(QStringLiteral("session 0 · random · seed 1, evaluation 2: 5 ms (best so far 5 ms)")),
                 qPrintable(tip));
        QVERIFY(tip.endsWith(QStringLiteral("Br=32")));
        QVERIFY(!chart.case_at(m.to_pixel(2, 5e-3), area));  // trials are not cases of a run
        QCOMPARE(render_chart(chart, QSize(1000, 700)).size(), QSize(1000, 700));
    }
    void no_success_no_scale() {
        TuningChart chart;
        chart.set_traces({trace("random", {std::nullopt})}, QStringLiteral("measured"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, chart.mapping(QRectF(0, 0, 800, 600)));
        QVERIFY(chart.tooltip_at(QPointF(100, 100), QRectF(0, 0, 800, 600)).isEmpty());
        QCOMPARE(render_chart(chart, QSize(800, 600)).size(), QSize(800, 600));  // paints a note instead
        chart.set_traces({}, {});
        QCOMPARE(chart.time_axis_title(), QStringLiteral("Best time (s), measured"));
    }
};

QTEST_MAIN(TuningChartTest)
#include "tuning_chart_test.moc"
