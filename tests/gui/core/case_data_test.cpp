#include <QTest>

#include "fixtures.hpp"
#include "core/errors.hpp"

using namespace memwall;
using namespace memwall::gui;

class CaseDataTest : public QObject {
    Q_OBJECT
  private slots:
    void params_from_problem_then_config_typed() {
        const auto p = parse_params("attention", R"({"causal":1,"seq_q":64,"mode":"x","p":0.25})", R"({"Br":32})");
        QCOMPARE(p.size(), std::size_t(5));
        QCOMPARE(p[0].name, QStringLiteral("causal"));
        QCOMPARE(p[0].text(), QStringLiteral("1"));
        QCOMPARE(p[1].text(), QStringLiteral("x"));  // strings unquoted
        QVERIFY(!p[1].number());                     // an enum is never read as a number
        QCOMPARE(p[2].text(), QStringLiteral("0.25"));
        QCOMPARE(p[2].kind, AxisKind::real);
        QCOMPARE(p[3].name, QStringLiteral("seq_q"));
        QCOMPARE(p[3].number().value(), 64.0);
        QVERIFY(!p[3].tunable);
        QVERIFY(p[4].tunable);
        QVERIFY(parse_params("attention", "{}", "").empty());
    }
    void kinds_come_from_the_runs_axes() {
        const std::vector<RunAxis> axes{{"attention", "causal", AxisKind::boolean, AxisRole::problem, "", {}},
                                        {"attention", "mode", AxisKind::string, AxisRole::problem, "", {"x", "y"}},
                                        {"other", "seq_q", AxisKind::real, AxisRole::problem, "", {}}};
        const auto p = parse_params("attention", R"({"causal":1,"mode":"x","seq_q":64})", "{}", axes);
        QCOMPARE(p[0].kind, AxisKind::boolean);
        QCOMPARE(p[0].number().value(), 1.0);
        QCOMPARE(p[1].kind, AxisKind::string);
        QCOMPARE(p[2].kind, AxisKind::integer);  // another family's axis of that name is not this one
    }
    void malformed_json_is_an_input_error() {
        QVERIFY_THROWS_EXCEPTION(InputError, parse_params("attention", "{", "{}"));
        QVERIFY_THROWS_EXCEPTION(InputError, parse_params("attention", "[1,2]", "{}"));
        QVERIFY_THROWS_EXCEPTION(InputError, parse_params("attention", R"({"a":[1]})", "{}"));
    }
    void row_is_completed_and_placed() {
        const CaseRow r = test::row({.median = 1e-3, .flops = 1e9, .dram_bytes = 1e8});
        QCOMPARE(r.family, QStringLiteral("attention"));
        QCOMPARE(r.params_text, QStringLiteral("seq=512 | Br=32"));
        QVERIFY(r.search_text.contains(QStringLiteral("attention/flash/cpu")));
        QVERIFY(r.search_text.contains(QStringLiteral("ok")));
        QCOMPARE(r.param(QStringLiteral("Br")), QStringLiteral("32"));
        QVERIFY(r.param(QStringLiteral("none")).isEmpty());
        QVERIFY(r.point.valid);
        QCOMPARE(r.point.intensity, 10.0);
        QCOMPARE(r.point.flops_per_second, 1e12);  // 1 GFLOP in 1 ms
        QVERIFY(r.level("dram"));
        QVERIFY(!r.level("l1"));
        QCOMPARE(case_label(r), QStringLiteral("attention/flash/cpu seq=512 | Br=32"));
    }
    void untimed_rows_are_not_placed() {
        const CaseRow r = test::row({.median = 0, .status = CaseStatus::failed});
        QVERIFY(!r.timed());
        QVERIFY(!r.point.valid);
        QCOMPARE(r.point.flops, 0.0);
    }
};

QTEST_GUILESS_MAIN(CaseDataTest)
#include "case_data_test.moc"
