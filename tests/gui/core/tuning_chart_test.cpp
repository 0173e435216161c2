#include <cmath>

#include <QTest>

#include "fixtures.hpp"
#include "gui/core/chart_export.hpp"
#include "gui/core/tuning_chart.hpp"

using namespace memwall;
using namespace memwall::gui;

class TuningChartTest : public QObject {
    Q_OBJECT
private slots:
    void strategies_share_the_axes() {
        const std::vector<CaseRow> rows{test::row({.id = 4, .median = 5e-3})};
        TuningChart chart;
        chart.set_traces({make_trace(QStringLiteral("s"), QStringLiteral("random"), {8e-3, 5e-3, 6e-3}, std::vector<const CaseRow*>{&rows[0], &rows[0], &rows[0]}),
                          make_trace(QStringLiteral("s"), QStringLiteral("guided"), {4e-3, 2e-3, std::nan(""), 1e-3, 3e-3})});
        const QRectF area(0, 0, 1000, 700);
        const PlotMapping m = chart.mapping(area);
        QVERIFY(m.x.lo() <= 1 && m.x.hi() >= 5);
        QVERIFY(m.y.lo() <= 1e-3 && m.y.hi() >= 8e-3);
        QCOMPARE(m.y.scale(), Scale::log);
        // Hover and click reach the evaluation under the pointer.
        const QPointF at = m.to_pixel(2, 5e-3);
        QVERIFY(chart.tooltip_at(at, area).startsWith(QStringLiteral("random, evaluation 2: 5 ms (best so far 5 ms)")));
        QCOMPARE(chart.case_at(at, area), std::optional<std::int64_t>(4));
        QVERIFY(!chart.case_at(m.to_pixel(4, 1e-3), area));  // a replayed trace has no case behind it
        QCOMPARE(render_chart(chart, QSize(1000, 700)).size(), QSize(1000, 700));
    }
    void no_success_no_scale() {
        TuningChart chart;
        chart.set_traces({make_trace(QStringLiteral("s"), QStringLiteral("random"), {std::nan("")})});
        QVERIFY_THROWS_EXCEPTION(std::logic_error, chart.mapping(QRectF(0, 0, 800, 600)));
        QVERIFY(chart.tooltip_at(QPointF(100, 100), QRectF(0, 0, 800, 600)).isEmpty());
        QCOMPARE(render_chart(chart, QSize(800, 600)).size(), QSize(800, 600));  // paints a note instead
    }
};

QTEST_MAIN(TuningChartTest)
#include "tuning_chart_test.moc"
