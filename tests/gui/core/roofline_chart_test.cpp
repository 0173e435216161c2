#include <cmath>

#include <QImage>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/chart_export.hpp"
#include "gui/core/roofline_chart.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

const QRectF kArea(0, 0, 1200, 800);

bool near(const QPointF& a, const QPointF& b, double tol) {
    return std::abs(a.x() - b.x()) <= tol && std::abs(a.y() - b.y()) <= tol;
}

}  // namespace

class RooflineChartTest : public QObject {
    Q_OBJECT
  private slots:
    void init() {
        rows_ = {
            test::row({.id = 1, .variant = "naive", .median = 1e-2, .flops = 1e9, .dram_bytes = 1e9, .l2_bytes = 2e9}),
            test::row({.id = 2,
                       .variant = "flash",
                       .median = 1e-2,
                       .flops = 1e9,
                       .dram_bytes = 1e7,
                       .source = CounterSource::emu}),
            test::row({.id = 3, .variant = "flash", .median = 0, .status = CaseStatus::failed})};
        chart_ = RooflineChart();
        chart_.set_ceilings(test::ceilings());
        chart_.set_cases(test::ptrs(rows_));
    }
    void the_ridge_is_placed_exactly() {
        const PlotMapping m = chart_.mapping(kArea);
        for (const char* level : {"dram", "l2", "l1"}) {
            const double bw = test::ceilings().find(level)->value, peak = 200e9;
            const RoofSegment s = roof_polyline(bw, peak, m.x.lo(), m.x.hi());
            const QPointF ridge = m.to_pixel(s.ridge_x, s.ridge_y);
            // The corner of the roof in pixels is the ridge (peak / bandwidth, peak) ...
            QVERIFY(near(ridge, m.to_pixel(peak / bw, peak), 1e-9));
            // ... maps back to it ...
            const QPointF back = m.to_value(ridge);
            QVERIFY(std::abs(back.x() / (peak / bw) - 1) < 1e-12);
            QVERIFY(std::abs(back.y() / peak - 1) < 1e-12);
            // ... and the slanted part is straight: its midpoint in log space lies on the line.
            const QPointF a = m.to_pixel(s.x0, s.y0);
            const double mid_x = std::sqrt(s.x0 * s.ridge_x);
            QVERIFY(near(m.to_pixel(mid_x, bw * mid_x), (a + ridge) / 2, 1e-6));
        }
    }
    void roofs_and_points_fit_the_default_view() {
        const Range x = chart_.x_range(), y = chart_.y_range();
        QVERIFY(x.lo <= 1 && x.hi >= 10);        // intensities 1 and 100 (dram); ridges 0.5 .. 5
        QVERIFY(x.lo <= 200e9 / 400e9);          // the L1 ridge
        QVERIFY(y.hi >= 200e9 && y.lo <= 1e11);  // peak and both points
        QCOMPARE(chart_.points().size(), std::size_t(2));
        QCOMPARE(chart_.unplaced(), std::size_t(1));
    }
    void points_sit_where_their_figures_say() {
        const PlotMapping m = chart_.mapping(kArea);
        const RoofPoint& naive = chart_.points()[0];
        QCOMPARE(naive.intensity, 1.0);
        QCOMPARE(naive.flops_per_second, 1e11);
        QCOMPARE(naive.source, CounterSource::model);
        QCOMPARE(chart_.points()[1].source, CounterSource::emu);
        const QPointF at = m.to_pixel(1.0, 1e11);
        QCOMPARE(chart_.case_at(at, kArea), std::optional<std::int64_t>(1));
        QCOMPARE(chart_.case_at(at + QPointF(4, -3), kArea), std::optional<std::int64_t>(1));
        QVERIFY(!chart_.case_at(at + QPointF(40, 40), kArea));
        QVERIFY(chart_.tooltip_at(at, kArea).contains(QStringLiteral("(model)")));
        QVERIFY(chart_.tooltip_at(m.to_pixel(100, 1e11), kArea).contains(QStringLiteral("(emu)")));
    }
    void level_moves_the_points() {
        chart_.set_level("l2");
        chart_.set_cases(test::ptrs(rows_));
        QCOMPARE(chart_.points().size(), std::size_t(1));  // only the naive case has L2 bytes
        QCOMPARE(chart_.points()[0].intensity, 0.5);
        QCOMPARE(chart_.unplaced(), std::size_t(2));
    }
    void every_level_draws_a_hierarchy_with_the_model_beside() {
        // An emulated case as cuda-emu stores it: emu bytes at DRAM and L2 under CUPTI names,
        // the model's at DRAM, L2 and L1.
        CaseRow emu;
        emu.id = 7;
        emu.run_id = 1;
        emu.key = CaseKey{"attention", "flash", "cuda-emu", R"({"seq":128})", R"({"Br":64})"};
        emu.n_samples = 5;
        emu.median = emu.q1 = emu.q3 = emu.min = 1e-2;
        complete_case_row(emu,
                          {{"flops", 1e9, "FLOP", CounterSource::model},
                           {"bytes.dram", 2e8, "B", CounterSource::model},
                           {"bytes.l2", 4e8, "B", CounterSource::model},
                           {"bytes.l1", 8e8, "B", CounterSource::model},
                           {"dram__bytes_read.sum", 5e7, "B", CounterSource::emu},
                           {"dram__bytes_write.sum", 5e7, "B", CounterSource::emu},
                           {"lts__t_bytes.sum", 2e8, "B", CounterSource::emu}},
                          test::ceilings());
        const std::vector<const CaseRow*> rows{&emu};
        chart_.set_level(RooflineChart::kEveryLevel);
        chart_.set_cases(rows);
        const auto& pts = chart_.points();
        QCOMPARE(pts.size(), std::size_t(5));  // emu dram, emu l2, model l1; model dram, l2 beside
        const std::pair<const char*, CounterSource> expect[] = {{"dram", CounterSource::emu},
                                                                {"l2", CounterSource::emu},
                                                                {"l1", CounterSource::model},
                                                                {"dram", CounterSource::model},
                                                                {"l2", CounterSource::model}};
        for (std::size_t i = 0; i < pts.size(); ++i) {
            QCOMPARE(pts[i].level, std::string(expect[i].first));
            QCOMPARE(pts[i].source, expect[i].second);
            QCOMPARE(pts[i].beside, i >= 3);
        }
        QCOMPARE(pts[0].intensity, 10.0);  // 1 GFLOP over 100 MB of emu DRAM traffic
        QCOMPARE(pts[3].intensity, 5.0);   // the model's 200 MB
        const PlotMapping m = chart_.mapping(kArea);
        QVERIFY(chart_.tooltip_at(m.to_pixel(10.0, 1e11), kArea).startsWith(QStringLiteral("at DRAM, bytes from emu")));
        QVERIFY(chart_.tooltip_at(m.to_pixel(5.0, 1e11), kArea).contains(QStringLiteral("beside the measured point")));
        chart_.set_show_modelled(false);
        chart_.set_cases(rows);
        QCOMPARE(chart_.points().size(), std::size_t(3));
        QVERIFY(!render_chart(chart_, QSize(1200, 800)).isNull());
    }
    void series_by_variant_and_markers_by_backend() {
        QCOMPARE(chart_.series(),
                 (std::vector<QString>{QStringLiteral("attention/flash"), QStringLiteral("attention/naive")}));
        QCOMPARE(chart_.points()[0].series, 1);
        QCOMPARE(backend_marker(QStringLiteral("cuda-emu")), Marker::triangle);
        QCOMPARE(backend_marker(QStringLiteral("cpu")), Marker::circle);
    }
    void zoom_pan_and_reset() {
        const PlotMapping before = chart_.mapping(kArea);
        const QPointF c = before.frame.center();
        const QPointF v = before.to_value(c);
        QVERIFY(chart_.zoom(2, c, kArea));
        const PlotMapping zoomed = chart_.mapping(kArea);
        QVERIFY(near(zoomed.to_pixel(v.x(), v.y()), c, 1e-6));
        QVERIFY(zoomed.x.hi() / zoomed.x.lo() < before.x.hi() / before.x.lo());
        QVERIFY(chart_.pan(QPointF(50, 0), kArea));
        QVERIFY(near(chart_.mapping(kArea).to_pixel(v.x(), v.y()), c + QPointF(50, 0), 1e-6));
        chart_.reset_view();
        QCOMPARE(chart_.mapping(kArea).x.lo(), before.x.lo());
    }
    void roofs_can_be_hidden() {
        QCOMPARE(chart_.roof_names(), (std::vector<std::string>{"l1", "l2", "dram", "fp32_fma"}));
        const QImage with = render_chart(chart_, QSize(1200, 800));
        chart_.set_roof_visible("l1", false);
        QVERIFY(!chart_.roof_visible("l1"));
        QVERIFY(render_chart(chart_, QSize(1200, 800)) != with);
        chart_.set_roof_visible("l1", true);
        QVERIFY(render_chart(chart_, QSize(1200, 800)) == with);
    }
    void roofs_are_labelled_by_what_they_are() {
        QCOMPARE(ceiling_label("fp32_fma"), QStringLiteral("FP32 FMA"));
        QCOMPARE(ceiling_label("bf16_tensor"), QStringLiteral("BF16 tensor"));
        QCOMPARE(ceiling_label("tf32_tensor"), QStringLiteral("TF32 tensor"));
        QCOMPARE(ceiling_label("tier.rand.4KiB"), QStringLiteral("TIER.RAND.4KIB"));
    }
    void paints_without_ceilings_or_points() {
        RooflineChart empty;
        QCOMPARE(empty.x_range().lo, 0.01);
        const QImage img = render_chart(empty, QSize(600, 400));
        QCOMPARE(img.size(), QSize(600, 400));
        // The DRAM roof is drawn where the mapping puts it (in its colour, off-white).
        const QImage full = render_chart(chart_, QSize(1200, 800));
        const PlotMapping m = chart_.mapping(kArea);
        const double x = 0.3;  // left of every ridge, on the slanted part
        const QPoint on_roof = m.to_pixel(x, 40e9 * x).toPoint();
        const QColor c = full.pixelColor(on_roof);
        QVERIFY(c.red() > c.green() + 40);  // DRAM's roof is dark red
        const QColor below = full.pixelColor(on_roof + QPoint(0, 30));
        QVERIFY(below.red() < below.green() + 10);  // background or grid, not the roof
    }

  private:
    std::vector<CaseRow> rows_;
    RooflineChart chart_;
};

QTEST_MAIN(RooflineChartTest)
#include "roofline_chart_test.moc"
