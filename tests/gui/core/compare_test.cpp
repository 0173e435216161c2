#include <atomic>
#include <random>

#include <QTest>

#include "fixtures.hpp"
#include "gui/core/compare.hpp"
#include "core/errors.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

RunRow run(std::int64_t id, const std::string& device = "cpu0", const std::string& backend = "cpu") {
    RunRow r;
    r.info.id = id;
    r.info.device = device;
    r.info.backend = backend;
    r.info.status = RunStatus::complete;
    r.ceilings = test::ceilings();
    return r;
}

// Five repetitions of `n` samples around `seconds`, 2% noise.
Repetitions timings(double seconds, std::mt19937_64& rng, std::size_t n = 6) {
    std::normal_distribution<double> noise(1, 0.02);
    Repetitions r(5);
    for (auto& rep : r)
        for (std::size_t i = 0; i < n; ++i) rep.push_back(seconds * noise(rng));
    return r;
}

LoadedRun loaded(const CompareSide& side, const SampleMap& samples) {
    LoadedRun out{side.run.info, side.database, side.run.ceilings, side.cases};
    for (CaseRecord& c : out.cases) c.samples = samples.at(c.id);
    return out;
}

}  // namespace

class CompareTest : public QObject {
    Q_OBJECT
  private slots:
    void chunks_give_the_one_call_result() {
        // 30 problems in both runs (every fifth 10% slower, every seventh 10% faster), one only
        // in each, and a case that fails in the candidate.
        std::mt19937_64 rng(7);
        std::vector<CaseRow> base, cand;
        SampleMap bs, cs;
        for (int i = 0; i < 32; ++i) {
            const std::string problem = "{\"seq\":" + std::to_string(i) + "}";
            const double t = 1e-3 * (1 + i % 4);
            if (i != 31) {
                base.push_back(test::row({.id = 100 + i, .run = 1, .problem = problem, .median = t}));
                bs[100 + i] = timings(t, rng);
            }
            if (i == 30) continue;
            const double k = i % 5 == 0 ? 1.1 : i % 7 == 0 ? 0.9 : 1.0;
            const bool broken = i == 3;
            cand.push_back(test::row({.id = 200 + i,
                                      .run = 2,
                                      .problem = problem,
                                      .median = broken ? 0 : t * k,
                                      .status = broken ? CaseStatus::failed : CaseStatus::ok}));
            cs[200 + i] = broken ? Repetitions{} : timings(t * k, rng);
        }
        const CompareSide b = compare_side("t.db", run(1), test::ptrs(base)),
                          c = compare_side("t.db", run(2), test::ptrs(cand));
        const Comparison whole = compare_runs(loaded(b, bs), loaded(c, cs), CompareOptions{});

        std::atomic<std::size_t> last{0};
        CompareControl control;
        control.chunk = 5;
        control.threads = 2;
        control.progress = [&](std::size_t done, std::size_t) { last = std::max(last.load(), done); };
        const auto parts = compare_sides(b, c, CompareOptions{}, bs, cs, {}, {}, control);
        QVERIFY(parts);
        QCOMPARE(last.load(), base.size() + cand.size());
        QCOMPARE(parts->cases.size(), whole.cases.size() + 2);
        QCOMPARE(parts->warnings, whole.warnings);
        std::map<CaseKey, const CaseComparison*> expected;
        for (const CaseComparison& x : whole.cases) expected[x.key] = &x;
        std::size_t slower = 0, failed = 0;
        for (const ComparedCase& x : parts->cases) {
            if (!x.baseline_id || !x.candidate_id) continue;
            const CaseComparison& want = *expected.at(x.result.key);
            QCOMPARE(x.candidate_id - x.baseline_id, 100);
            QCOMPARE(x.result.verdict, want.verdict);
            QCOMPARE(x.result.ratio, want.ratio);
            QCOMPARE(x.result.ci.lo, want.ci.lo);
            QCOMPARE(x.result.ci.hi, want.ci.hi);
            QCOMPARE(x.result.p_value, want.p_value);
            QVERIFY(x.result.replicates.empty());  // not kept for every case
            slower += x.result.verdict == Verdict::slower;
            failed += x.result.verdict == Verdict::failed;
        }
        QCOMPARE(slower, whole.count(Verdict::slower));
        QVERIFY(slower >= 5);
        QCOMPARE(failed, std::size_t(1));
        const ComparedCase& only_base = parts->cases[parts->cases.size() - 2];
        QCOMPARE(only_base.baseline_id, 130);
        QCOMPARE(only_base.candidate_id, 0);
        QCOMPARE(parts->cases.back().candidate_id, 231);

        // Tied back to the rows: labels, verdict texts, severity and the summary line.
        const auto rows = compare_rows(parts->cases, test::ptrs(base), test::ptrs(cand));
        QCOMPARE(rows.size(), parts->cases.size());
        QCOMPARE(rows.back().candidate->id, 231);
        QVERIFY(!rows.back().baseline);
        QCOMPARE(verdict_text(rows.back()), QStringLiteral("only in candidate"));
        QVERIFY(rows.back().label.contains(QStringLiteral("seq=31")));
        QCOMPARE(severity(rows.back()), 6);
        const auto broken = std::find_if(rows.begin(), rows.end(), [](const CompareRow& r) {
            return r.result.verdict == Verdict::failed && r.matched();
        });
        QCOMPARE(verdict_text(*broken), QStringLiteral("FAILED"));
        QCOMPARE(severity(*broken), 0);
        const QString summary = verdict_summary(rows);
        QVERIFY2(summary.startsWith(QStringLiteral("1 FAILED, %1 SLOWER").arg(slower)), qPrintable(summary));
        QVERIFY2(summary.endsWith(QStringLiteral(", 1 only in baseline, 1 only in candidate")), qPrintable(summary));
    }

    void other_devices_need_cross_device() {
        std::mt19937_64 rng(3);
        const std::vector<CaseRow> base{test::row({.id = 1, .run = 1})};
        const std::vector<CaseRow> cand{test::row({.id = 2, .run = 2, .backend = "cuda-emu"})};
        const SampleMap bs{{1, timings(1e-3, rng)}}, cs{{2, timings(1e-3, rng)}};
        const CompareSide b = compare_side("t.db", run(1), test::ptrs(base));
        const CompareSide c = compare_side("t.db", run(2, "emu", "cuda-emu"), test::ptrs(cand));
        CompareOptions o;
        QVERIFY(!needs_counters(b.run.info, c.run.info, o));
        QVERIFY_THROWS_EXCEPTION(UsageError, compare_sides(b, c, o, bs, cs, {}, {}));
        o.cross_device = true;
        QVERIFY(needs_counters(b.run.info, c.run.info, o));
        // Matched across backends (one each); without counters there is no roofline to normalise by.
        auto r = compare_sides(b, c, o, bs, cs, {}, {});
        QVERIFY(r && r->normalised);
        QCOMPARE(r->cases.size(), std::size_t(1));
        QCOMPARE(r->cases[0].baseline_id, 1);
        QCOMPARE(r->cases[0].candidate_id, 2);
        QCOMPARE(r->cases[0].result.verdict, Verdict::unsure);
        QVERIFY(r->cases[0].result.reason.find("cannot normalise") != std::string::npos);
        const CounterMap counters{
            {1, {{"flops", 1e9, "FLOP", CounterSource::model}, {"bytes.dram", 1e8, "B", CounterSource::model}}},
            {2, {{"flops", 1e9, "FLOP", CounterSource::model}, {"bytes.dram", 1e8, "B", CounterSource::emu}}}};
        r = compare_sides(b, c, o, bs, cs, counters, counters);
        QVERIFY(r->cases[0].result.ci.hi > 0);
        QVERIFY(r->cases[0].result.base.percent_of_roof > 0);
    }

    void stops_between_chunks() {
        const std::vector<CaseRow> base{test::row({.id = 1})};
        const SampleMap bs{{1, Repetitions{{1e-3, 1e-3, 1e-3}}}};
        const std::atomic<bool> stop{true};
        CompareControl control;
        control.stop = &stop;
        const CompareSide b = compare_side("t.db", run(1), test::ptrs(base));
        QVERIFY(!compare_sides(b, b, CompareOptions{}, bs, bs, {}, {}, control));
        QVERIFY(verdict_colour(Verdict::faster) != verdict_colour(Verdict::slower));
    }
};

QTEST_GUILESS_MAIN(CompareTest)
#include "compare_test.moc"
