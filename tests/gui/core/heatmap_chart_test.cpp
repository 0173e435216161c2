#include <QTest>

#include "fixtures.hpp"
#include "gui/core/chart_export.hpp"
#include "gui/core/heatmap_chart.hpp"

using namespace memwall;
using namespace memwall::gui;

class HeatmapChartTest : public QObject {
    Q_OBJECT
  private slots:
    void cells_map_to_pixels_and_back() {
        std::vector<CaseRow> rows;
        std::int64_t id = 1;
        for (const int br : {16, 32, 64})
            for (const int bc : {32, 64})
                rows.push_back(
                    test::row({.id = id++,
                               .config = "{\"Bc\":" + std::to_string(bc) + ",\"Br\":" + std::to_string(br) + "}",
                               .median = br * bc * 1e-6}));
        HeatmapChart chart;
        chart.set_map(
            build_parameter_map(test::ptrs(rows), QStringLiteral("Br"), QStringLiteral("Bc"), MapMetric::time));
        const QRectF area(0, 0, 900, 600);
        for (int x = 0; x < 3; ++x)
            for (int y = 0; y < 2; ++y) {
                const QRectF r = chart.cell_rect(x, y, area);
                QVERIFY(r.width() > 10 && r.height() > 10);
                const auto id_at = chart.case_at(r.center(), area);
                QVERIFY(id_at);
                QCOMPARE(*id_at, chart.map().cell_case(x, y)->id);
            }
        // y grows upward, as on a plot: the first y value is the bottom row.
        QVERIFY(chart.cell_rect(0, 0, area).top() > chart.cell_rect(0, 1, area).top());
        QVERIFY(chart.tooltip_at(chart.cell_rect(0, 0, area).center(), area)
                    .startsWith(QStringLiteral("Br=16, Bc=32: 512 µs")));
        QVERIFY(!chart.case_at(QPointF(2, 2), area));
        const QImage img = render_chart(chart, QSize(900, 600));
        // The best cell (Br 16, Bc 32: the fastest) is the bright end of the scale.
        const QColor best = img.pixelColor(chart.cell_rect(0, 0, area).center().toPoint() + QPoint(0, 20));
        QCOMPARE(best.rgb(), viridis(1).rgb());
    }
    void colour_scale() {
        QCOMPARE(viridis(0).rgb(), QColor::fromRgb(0x440154).rgb());
        QCOMPARE(viridis(1).rgb(), QColor::fromRgb(0xfde725).rgb());
        QCOMPARE(viridis(-3), viridis(0));
        ParameterMap m;
        QCOMPARE(heat_colour(m, std::nan("")), QColor(225, 225, 225));
        m.metric = MapMetric::percent_of_roof;
        QCOMPARE(cell_text(m, 42.24), QStringLiteral("42.2%"));
    }
    void empty_map_paints_a_note() {
        HeatmapChart chart;
        QCOMPARE(render_chart(chart, QSize(400, 300)).size(), QSize(400, 300));
        QVERIFY(chart.tooltip_at(QPointF(200, 150), QRectF(0, 0, 400, 300)).isEmpty());
    }
};

QTEST_MAIN(HeatmapChartTest)
#include "heatmap_chart_test.moc"
