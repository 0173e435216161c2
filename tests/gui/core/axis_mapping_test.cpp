#include <cmath>
#include <random>
#include <stdexcept>

#include <QTest>

#include "gui/core/axis_mapping.hpp"

using namespace memwall::gui;

class AxisMappingTest : public QObject {
    Q_OBJECT
  private slots:
    void log_round_trip_within_a_pixel() {
        const AxisMap x(1e-2, 1e3, 80, 1080, Scale::log);
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> pixel(80, 1080);
        for (int i = 0; i < 1000; ++i) {
            const double p = pixel(rng);
            QVERIFY(std::abs(x.to_pixel(x.to_value(p)) - p) < 1.0);
        }
        std::uniform_real_distribution<double> exponent(-2, 3);
        for (int i = 0; i < 1000; ++i) {
            const double v = std::pow(10.0, exponent(rng));
            // A value comes back to within what one pixel spans at that value.
            const double p = x.to_pixel(v);
            QVERIFY(x.to_value(p - 1) < v && v < x.to_value(p + 1));
        }
    }
    void log_axis_gives_each_decade_the_same_pixels() {
        const AxisMap x(0.1, 1000, 0, 800, Scale::log);
        QCOMPARE(x.to_pixel(0.1), 0.0);
        QCOMPARE(x.to_pixel(1000), 800.0);
        QCOMPARE(x.to_pixel(1), 200.0);
        QCOMPARE(x.to_pixel(10), 400.0);
        QCOMPARE(x.to_pixel(100), 600.0);
        // Halfway between 1 and 100 in pixels is their geometric mean.
        QVERIFY(std::abs(x.to_value(400) - 10) < 1e-9);
    }
    void y_axis_grows_upward() {
        const AxisMap y(1e9, 1e12, 700, 100, Scale::log);
        QCOMPARE(y.to_pixel(1e9), 700.0);
        QCOMPARE(y.to_pixel(1e12), 100.0);
        QVERIFY(y.to_pixel(1e10) > y.to_pixel(1e11));
    }
    void linear_round_trip() {
        const AxisMap x(0, 50, 100, 600, Scale::linear);
        QCOMPARE(x.to_pixel(25), 350.0);
        for (double p = 100; p <= 600; p += 7.3) QVERIFY(std::abs(x.to_pixel(x.to_value(p)) - p) < 1e-9);
    }
    void zoom_keeps_the_value_under_the_pointer() {
        const AxisMap x(1e-2, 1e3, 0, 1000, Scale::log);
        const double p = 333;
        const double v = x.to_value(p);
        const AxisMap z = x.zoomed(2, p);
        QVERIFY(std::abs(z.to_pixel(v) - p) < 1e-6);
        QVERIFY(std::abs(std::log10(z.hi() / z.lo()) - 2.5) < 1e-9);  // half the decades
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, x.zoomed(0, p));
    }
    void pan_moves_the_content_with_the_pointer() {
        const AxisMap x(1, 1000, 0, 900, Scale::log);
        const double v = x.to_value(450);
        const AxisMap moved = x.panned(100);  // dragged 100 px to the right
        QVERIFY(std::abs(moved.to_pixel(v) - 550) < 1e-6);
        QVERIFY(std::abs(std::log10(moved.hi() / moved.lo()) - 3) < 1e-9);
    }
    void ticks() {
        const AxisMap x(0.01, 1000, 0, 1000, Scale::log);
        QCOMPARE(x.ticks(), (std::vector<double>{0.01, 0.1, 1, 10, 100, 1000}));
        const AxisMap narrow(1, 10, 0, 1000, Scale::log);
        QCOMPARE(narrow.ticks(), (std::vector<double>{1, 2, 5, 10}));
        QCOMPARE(narrow.minor_ticks().size(), std::size_t(8));
        const AxisMap within(0.45e-3, 1.4e-3, 0, 100, Scale::log);  // less than a decade
        QCOMPARE(within.ticks().size(), std::size_t(5));            // 0.6, 0.8, ..., 1.4 ms, as if linear
        QCOMPARE(within.ticks().front(), 0.6e-3);
        QCOMPARE(AxisMap(10.5e-3, 18.5e-3, 0, 100, Scale::log).ticks().size(), std::size_t(8));  // 11, 12, ..., 18 ms
        const AxisMap lin(0, 10, 0, 500, Scale::linear);
        QCOMPARE(lin.ticks(5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
        QVERIFY(lin.minor_ticks().empty());
        const AxisMap counts(0, 4, 0, 500, Scale::linear);
        QCOMPARE(counts.ticks(8, 1), (std::vector<double>{0, 1, 2, 3, 4}));  // no 0.5 steps
        // Many decades: every other one, so labels do not collide.
        const AxisMap wide(1e-6, 1e12, 0, 500, Scale::log);
        QVERIFY(wide.ticks(8).size() <= 10);
    }
    void bad_ranges_are_refused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AxisMap(0, 10, 0, 100, Scale::log));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AxisMap(5, 5, 0, 100, Scale::linear));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AxisMap(1, 10, 50, 50, Scale::linear));
    }
    void plot_mapping_and_decades() {
        const PlotMapping m = PlotMapping::over(QRectF(100, 50, 800, 600), 0.1, 100, 1e9, 1e12, Scale::log, Scale::log);
        QCOMPARE(m.to_pixel(0.1, 1e9), QPointF(100, 650));
        QCOMPARE(m.to_pixel(100, 1e12), QPointF(900, 50));
        const QPointF v = m.to_value(QPointF(500, 350));
        QVERIFY(std::abs(v.x() - std::sqrt(0.1 * 100)) < 1e-9);
        QVERIFY(std::abs(v.y() - std::sqrt(1e9 * 1e12)) / v.y() < 1e-9);
        const Range r = decade_range(0.03, 250);
        QCOMPARE(r.lo, 0.01);
        QCOMPARE(r.hi, 1000.0);
        QCOMPARE(decade_range(10, 10).hi, 100.0);
    }
};

QTEST_GUILESS_MAIN(AxisMappingTest)
#include "axis_mapping_test.moc"
