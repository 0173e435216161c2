#include <QTest>

#include "fixtures.hpp"
#include "core/errors.hpp"

using namespace memwall;
using namespace memwall::gui;

class CaseDataTest : public QObject {
    Q_OBJECT
private slots:
    void params_from_problem_then_config() {
        const auto p = parse_params(R"({"causal":true,"seq_q":64,"mode":"x"})", R"({"Br":32})");
        QCOMPARE(p.size(), std::size_t(4));
        QCOMPARE(p[0].name, QStringLiteral("causal"));
        QCOMPARE(p[0].value, QStringLiteral("true"));
        QCOMPARE(p[2].name, QStringLiteral("seq_q"));
        QCOMPARE(p[2].value, QStringLiteral("64"));
        QCOMPARE(p[1].value, QStringLiteral("x"));  // strings unquoted
        QVERIFY(!p[2].tunable);
        QVERIFY(p[3].tunable);
        QVERIFY(parse_params("{}", "").empty());
    }
    void malformed_json_is_an_input_error() {
        QVERIFY_THROWS_EXCEPTION(InputError, parse_params("{", "{}"));
        QVERIFY_THROWS_EXCEPTION(InputError, parse_params("[1,2]", "{}"));
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
