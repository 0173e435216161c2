#include <QTest>

#include "fixtures.hpp"
#include "gui/core/compare.hpp"

using namespace memwall;
using namespace memwall::gui;

class CompareTest : public QObject {
    Q_OBJECT
private slots:
    void interval_rule() {
        const CaseRow base = test::row({.median = 1e-3});                   // [0.98, 1.01] ms
        QCOMPARE(interval_verdict(base, test::row({.median = 1.2e-3})), Verdict::slower);
        QCOMPARE(interval_verdict(base, test::row({.median = 0.8e-3})), Verdict::faster);
        QCOMPARE(interval_verdict(base, test::row({.median = 1.02e-3})), Verdict::same);  // intervals overlap
        // Apart by more than 0.5% of the median, but by less than a 5% gap: same.
        QCOMPARE(interval_verdict(base, test::row({.median = 1.04e-3})), Verdict::slower);
        QCOMPARE(interval_verdict(base, test::row({.median = 1.04e-3}), 0.05), Verdict::same);
        QCOMPARE(interval_verdict(base, test::row({.median = 0}), 0.005), Verdict::untimed);
    }
    void pairs_by_identity() {
        const std::vector<CaseRow> base{test::row({.id = 1, .problem = R"({"seq":1})", .median = 1e-3}),
                                        test::row({.id = 2, .problem = R"({"seq":2})", .median = 1e-3}),
                                        test::row({.id = 3, .problem = R"({"seq":3})", .median = 1e-3})};
        const std::vector<CaseRow> cand{test::row({.id = 13, .run = 2, .problem = R"({"seq":3})", .median = 2e-3}),
                                        test::row({.id = 11, .run = 2, .problem = R"({"seq":1})", .median = 1e-3}),
                                        test::row({.id = 14, .run = 2, .problem = R"({"seq":4})", .median = 1e-3})};
        const auto rows = compare_cases(test::ptrs(base), test::ptrs(cand));
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[0].verdict, Verdict::same);
        QCOMPARE(rows[0].candidate->id, 11);
        QCOMPARE(rows[0].ratio, 1.0);
        QCOMPARE(rows[1].verdict, Verdict::only_baseline);
        QVERIFY(!rows[1].candidate);
        QCOMPARE(rows[2].verdict, Verdict::slower);
        QCOMPARE(rows[2].ratio, 2.0);
        QCOMPARE(rows[3].verdict, Verdict::only_candidate);
        QCOMPARE(rows[3].candidate->id, 14);
        QVERIFY(rows[3].label.contains(QStringLiteral("seq=4")));
    }
    void the_rule_is_pluggable() {
        const std::vector<CaseRow> base{test::row({.id = 1, .median = 1e-3})};
        const std::vector<CaseRow> cand{test::row({.id = 2, .run = 2, .median = 1e-3})};
        const auto rows = compare_cases(test::ptrs(base), test::ptrs(cand),
                                        [](const CaseRow&, const CaseRow&) { return Verdict::faster; });
        QCOMPARE(rows.front().verdict, Verdict::faster);
        QCOMPARE(verdict_text(Verdict::only_candidate), QStringLiteral("only in candidate"));
        QVERIFY(verdict_colour(Verdict::faster) != verdict_colour(Verdict::slower));
    }
};

QTEST_GUILESS_MAIN(CompareTest)
#include "compare_test.moc"
