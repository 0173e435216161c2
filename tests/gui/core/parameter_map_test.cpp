#include <cmath>

#include <QTest>

#include "fixtures.hpp"
#include "gui/core/parameter_map.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

// Br x Bc grid for seq 512 and 1024; time = Br/32 + Bc/64 (ms), best at Br=16, Bc=32, seq=512.
std::vector<CaseRow> grid() {
    std::vector<CaseRow> rows;
    std::int64_t id = 1;
    for (const int seq : {1024, 512})
        for (const int br : {64, 16, 32})
            for (const int bc : {32, 128}) {
                const double ms = br / 32.0 + bc / 64.0 + (seq == 1024 ? 1 : 0);
                rows.push_back(
                    test::row({.id = id++,
                               .problem = "{\"seq\":" + std::to_string(seq) + "}",
                               .config = "{\"Bc\":" + std::to_string(bc) + ",\"Br\":" + std::to_string(br) + "}",
                               .median = ms * 1e-3,
                               .flops = 1e8,
                               .dram_bytes = 1e6}));
            }
    rows.push_back(
        test::row({.id = id++, .config = R"({"Bc":256,"Br":16})", .median = 0, .status = CaseStatus::failed}));
    return rows;
}

}  // namespace

class ParameterMapTest : public QObject {
    Q_OBJECT
  private slots:
    void varying_axes() {
        const auto rows = grid();
        QCOMPARE(varying_params(test::ptrs(rows)),
                 (QStringList{QStringLiteral("Bc"), QStringLiteral("Br"), QStringLiteral("seq")}));
        const std::vector<CaseRow> one{test::row({})};
        QVERIFY(varying_params(test::ptrs(one)).isEmpty());
    }
    void cells_hold_the_best_over_the_free_parameters() {
        const auto rows = grid();
        const ParameterMap m =
            build_parameter_map(test::ptrs(rows), QStringLiteral("Br"), QStringLiteral("Bc"), MapMetric::time);
        QCOMPARE(m.x_values,
                 (QStringList{QStringLiteral("16"), QStringLiteral("32"), QStringLiteral("64")}));  // numeric order
        QCOMPARE(m.y_values, (QStringList{QStringLiteral("32"), QStringLiteral("128"), QStringLiteral("256")}));
        QCOMPARE(m.value(0, 0), 1e-3);  // Br 16, Bc 32: 0.5 + 0.5 ms at seq 512
        QCOMPARE(m.cell_case(0, 0)->param(QStringLiteral("seq")), QStringLiteral("512"));
        QCOMPARE(m.value(2, 1), 4e-3);       // Br 64, Bc 128
        QVERIFY(std::isnan(m.value(0, 2)));  // only a failed case there
        QVERIFY(!m.cell_case(0, 2));
        QCOMPARE(m.best, (std::optional<std::pair<int, int>>{{0, 0}}));
    }
    void percent_of_roof_prefers_higher() {
        const auto rows = grid();
        const ParameterMap m = build_parameter_map(test::ptrs(rows), QStringLiteral("Br"), QStringLiteral("seq"),
                                                   MapMetric::percent_of_roof);
        QCOMPARE(m.y_values, (QStringList{QStringLiteral("512"), QStringLiteral("1024")}));
        QVERIFY(m.best);
        // The highest % of roof is the fastest case: Br 16 at seq 512.
        QCOMPARE(m.x_values[m.best->first], QStringLiteral("16"));
        QCOMPARE(m.y_values[m.best->second], QStringLiteral("512"));
        QVERIFY(m.value(0, 0) > m.value(2, 1));
        QCOMPARE(metric_text(MapMetric::percent_of_roof), QStringLiteral("% of roof"));
    }
    void an_enum_of_digits_keeps_text_order_a_number_numeric_order() {
        // head_dim as a number sorts 64 before 128; a string axis whose values look like numbers
        // ("64", "128") is not read as one: text order.
        std::vector<CaseRow> rows;
        std::int64_t id = 1;
        for (const char* d : {"128", "64"})
            for (const char* tag : {"\"128\"", "\"64\""})
                rows.push_back(test::row({.id = id++,
                                          .problem = std::string("{\"head_dim\":") + d + ",\"tag\":" + tag + "}",
                                          .median = 1e-3}));
        const ParameterMap m =
            build_parameter_map(test::ptrs(rows), QStringLiteral("head_dim"), QStringLiteral("tag"), MapMetric::time);
        QCOMPARE(m.x_values, (QStringList{QStringLiteral("64"), QStringLiteral("128")}));
        QCOMPARE(m.y_values, (QStringList{QStringLiteral("128"), QStringLiteral("64")}));
    }
    void same_axis_twice_is_refused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 build_parameter_map({}, QStringLiteral("a"), QStringLiteral("a"), MapMetric::time));
        const ParameterMap empty = build_parameter_map({}, QStringLiteral("a"), QStringLiteral("b"), MapMetric::time);
        QCOMPARE(empty.nx(), 0);
        QVERIFY(!empty.best);
    }
};

QTEST_GUILESS_MAIN(ParameterMapTest)
#include "parameter_map_test.moc"
