#include "results/compare.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/errors.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

CompareOptions defaults() { return {}; }

// --- the rule -------------------------------------------------------------------------------

TEST(Decide, SlowerAndFasterNeedTheIntervalBeyondTheBandAndSignificance) {
    EXPECT_EQ(decide({1.06, 1.10}, 0.01, defaults()).verdict, Verdict::slower);
    EXPECT_EQ(decide({0.90, 0.94}, 0.01, defaults()).verdict, Verdict::faster);
    const Decision not_significant = decide({1.06, 1.10}, 0.2, defaults());
    EXPECT_EQ(not_significant.verdict, Verdict::unsure);
    EXPECT_NE(not_significant.reason.find("not significant"), std::string::npos) << not_significant.reason;
}

TEST(Decide, ASignificantShiftInsideTheBandIsSame) {
    // Drift between two runs of the same build: tiny p, small effect.
    const Decision d = decide({1.02, 1.03}, 1e-9, defaults());
    EXPECT_EQ(d.verdict, Verdict::same);
    EXPECT_NE(d.reason.find("within"), std::string::npos) << d.reason;
}

TEST(Decide, AnIntervalReachingIntoTheBandEdgeIsUnsure) {
    EXPECT_EQ(decide({1.03, 1.08}, 1e-6, defaults()).verdict, Verdict::unsure);
    EXPECT_EQ(decide({0.93, 0.97}, 1e-6, defaults()).verdict, Verdict::unsure);
    EXPECT_EQ(decide({0.90, 1.10}, 0.5, defaults()).verdict, Verdict::unsure);
}

TEST(Decide, BandEdgesAreInclusiveForSameAndExclusiveForAChange) {
    EXPECT_EQ(decide({1 / 1.05, 1.05}, 0.5, defaults()).verdict, Verdict::same);
    EXPECT_EQ(decide({1.05, 1.07}, 1e-6, defaults()).verdict, Verdict::unsure);
    CompareOptions wide;
    wide.threshold = 0.10;
    EXPECT_EQ(decide({1.06, 1.09}, 1e-6, wide).verdict, Verdict::same);
    EXPECT_EQ(decide({1.11, 1.2}, 1e-6, wide).verdict, Verdict::slower);
}

TEST(CompareOptions, ValidatesRanges) {
    CompareOptions o;
    o.threshold = 0;
    EXPECT_THROW(o.validate(), UsageError);
    o = {};
    o.alpha = 0.7;
    EXPECT_THROW(o.validate(), UsageError);
    EXPECT_NO_THROW(CompareOptions{}.validate());
}

TEST(FormatChange, SignedPercent) {
    EXPECT_EQ(format_change(1.123), "+12.3%");
    EXPECT_EQ(format_change(1 / 1.05), "-4.8%");
    EXPECT_EQ(format_change(1.0), "+0.0%");
}

// --- one case ---------------------------------------------------------------------------------

TEST(CompareTimings, IdenticalConstantTimesAreSame) {
    const CaseComparison c = compare_timings({{1e-3, 1e-3, 1e-3, 1e-3}}, {{1e-3, 1e-3, 1e-3, 1e-3}}, defaults(), 1);
    EXPECT_EQ(c.verdict, Verdict::same);
    EXPECT_DOUBLE_EQ(c.ratio, 1);
    EXPECT_DOUBLE_EQ(c.ci.lo, 1);
    EXPECT_DOUBLE_EQ(c.ci.hi, 1);
    EXPECT_EQ(c.p_value, 1);
}

TEST(CompareTimings, ZeroVarianceButSlowerIsSlower) {
    const std::vector<double> base(10, 1.0), cand(10, 1.2);
    const CaseComparison c = compare_timings({base}, {cand}, defaults(), 1);
    EXPECT_EQ(c.verdict, Verdict::slower) << c.reason;
    EXPECT_DOUBLE_EQ(c.ratio, 1.2);
    EXPECT_LT(c.p_value, 1e-3);
}

TEST(CompareTimings, OneSampleIsUnsure) {
    const CaseComparison c = compare_timings({{1.0}}, {{2.0, 2.0, 2.0}}, defaults(), 1);
    EXPECT_EQ(c.verdict, Verdict::unsure);
    EXPECT_NE(c.reason.find("too few samples"), std::string::npos) << c.reason;
    EXPECT_EQ(c.base.n, 1u);
    EXPECT_TRUE(c.replicates.empty());
}

TEST(CompareTimings, ThreeSeparatedSamplesCannotBeSignificant) {
    // Exact p for 3 vs 3 is at least 0.1: the verdict stays UNSURE however large the change.
    const CaseComparison c = compare_timings({{1.0, 1.01, 0.99}}, {{2.0, 2.01, 1.99}}, defaults(), 1);
    EXPECT_EQ(c.verdict, Verdict::unsure) << c.reason;
    EXPECT_NEAR(c.p_value, 0.1, 1e-12);
}

TEST(CompareTimings, RankTestUsesRepetitionsWhenThereAreEnough) {
    Repetitions base, cand;
    for (int r = 0; r < 5; ++r) {
        base.push_back({1.0 + 0.001 * r, 1.001 + 0.001 * r});
        cand.push_back({1.2 + 0.001 * r, 1.201 + 0.001 * r});
    }
    const CaseComparison c = compare_timings(base, cand, defaults(), 1);
    EXPECT_EQ(c.basis, "repetitions");
    EXPECT_NEAR(c.p_value, 2.0 / 252.0, 1e-12);  // 5 vs 5 repetition medians, separated
    EXPECT_EQ(c.verdict, Verdict::slower);
    EXPECT_EQ(c.base.repetitions, 5u);
    EXPECT_EQ(c.candidate.n, 10u);

    const CaseComparison one_rep = compare_timings({{1.0, 1.01, 0.99, 1.0}}, {{1.2, 1.21, 1.19, 1.2}}, defaults(), 1);
    EXPECT_EQ(one_rep.basis, "samples");
}

TEST(CompareTimings, SameBuildWithNoiseIsNotAnAlarm) {
    std::mt19937_64 rng(5);
    std::lognormal_distribution<double> t(std::log(1e-3), 0.03);
    int alarms = 0;
    for (int trial = 0; trial < 50; ++trial) {
        Repetitions a(1), b(1);
        for (int i = 0; i < 30; ++i) {
            a[0].push_back(t(rng));
            b[0].push_back(t(rng));
        }
        const Verdict v = compare_timings(a, b, defaults(), static_cast<std::uint64_t>(trial)).verdict;
        alarms += v == Verdict::slower || v == Verdict::faster;
    }
    EXPECT_EQ(alarms, 0);
}

// Eight repetitions of a 10% slower candidate measured beside the base while the machine's
// speed wandered by ±8% from repetition to repetition.
std::pair<Repetitions, Repetitions> drifting_pairs() {
    const double state[] = {1.00, 1.08, 0.93, 1.05, 0.95, 1.07, 0.92, 1.02};
    Repetitions base, cand;
    for (int r = 0; r < 8; ++r) {
        const double own = 1 + 0.002 * (r - 4);  // each pair's own noise, no two alike
        base.push_back({state[r] * 0.999, state[r], state[r] * 1.001});
        cand.push_back({1.1 * state[r] * own * 0.999, 1.1 * state[r] * own, 1.1 * state[r] * own * 1.001});
    }
    return {base, cand};
}

TEST(CompareTimings, PairedRepetitionsCancelTheDriftTheyShared) {
    const auto [base, cand] = drifting_pairs();
    const CaseComparison unpaired = compare_timings(base, cand, defaults(), 1);
    EXPECT_EQ(unpaired.basis, "repetitions");
    EXPECT_EQ(unpaired.verdict, Verdict::unsure) << unpaired.reason;
    const CaseComparison paired = compare_timings(base, cand, defaults(), 1, true);
    EXPECT_EQ(paired.basis, "paired repetitions");
    EXPECT_NEAR(paired.p_value, 2.0 / 256.0, 1e-12);  // all 8 pairs slower: exact signed-rank p
    EXPECT_EQ(paired.verdict, Verdict::slower) << paired.reason;
    EXPECT_GT(paired.ci.lo, 1.08);
    EXPECT_LT(paired.ci.hi, 1.12);
}

TEST(CompareTimings, PairingNeedsMatchingRepetitions) {
    auto [base, cand] = drifting_pairs();
    cand.pop_back();  // an interrupted run: the pairs no longer line up
    EXPECT_EQ(compare_timings(base, cand, defaults(), 1, true).basis, "repetitions");
    cand.resize(3);
    base.resize(3);  // too few pairs for the signed-rank test: samples, unpaired
    EXPECT_EQ(compare_timings(base, cand, defaults(), 1, true).basis, "samples");
}

// --- runs ---------------------------------------------------------------------------------------

CaseRecord record(std::string variant, std::string problem, std::vector<double> samples,
                  CaseStatus status = CaseStatus::ok) {
    CaseRecord c;
    c.key = {"attention", std::move(variant), "cpu", std::move(problem), "{}"};
    c.status = status;
    if (status == CaseStatus::ok) {
        c.summary = summarize(samples);
        c.samples = {std::move(samples)};
    } else {
        c.message = "rel. L2 error 0.5 (tolerance 0.0001)";
    }
    c.counters = {{"flops", 1e9, "FLOP", CounterSource::model}, {"bytes.dram", 1e8, "B", CounterSource::model}};
    return c;
}

std::vector<double> around(double median, double step = 0.001) {
    std::vector<double> v;
    for (int i = -5; i <= 5; ++i) v.push_back(median * (1 + step * i));
    return v;
}

LoadedRun run(std::int64_t id, std::vector<CaseRecord> cases, std::string device = "AMD EPYC 9B14, 2 threads") {
    LoadedRun r;
    r.info.id = id;
    r.info.status = RunStatus::complete;
    r.info.device = std::move(device);
    r.info.backend = "cpu";
    r.database = "t.db";
    r.cases = std::move(cases);
    return r;
}

TEST(CompareRuns, MatchesCasesAndListsTheUnmatched) {
    const LoadedRun a =
        run(1, {record("naive", R"({"s":64})", around(1.0)), record("flash", R"({"s":64})", around(0.5)),
                record("naive", R"({"s":128})", around(4.0))});
    const LoadedRun b =
        run(2, {record("naive", R"({"s":64})", around(1.0)), record("flash", R"({"s":64})", around(0.5)),
                record("flash", R"({"s":128})", around(2.0))});
    const Comparison c = compare_runs(a, b, defaults());
    ASSERT_EQ(c.cases.size(), 2u);
    for (const auto& x : c.cases) EXPECT_EQ(x.verdict, Verdict::same) << x.reason;
    ASSERT_EQ(c.only_in_base.size(), 1u);
    EXPECT_EQ(c.only_in_base[0].variant, "naive");
    ASSERT_EQ(c.only_in_candidate.size(), 1u);
    EXPECT_EQ(c.only_in_candidate[0].variant, "flash");
    EXPECT_FALSE(c.regression());  // a missing case is listed, not a regression
    EXPECT_EQ(c.geomean.cases, 2u);
    EXPECT_DOUBLE_EQ(c.geomean.ratio, 1.0);
}

TEST(CompareRuns, ABusySideIsUnsureNeverSlower) {
    const LoadedRun quiet = run(1, {record("naive", "{}", around(1.0))});
    CaseRecord busy = record("naive", "{}", around(100.0));  // an OpenMP team waiting for its threads
    busy.sampling_stop = sampling_stop::kHostBusy;
    const Comparison c = compare_runs(quiet, run(2, {busy}), defaults());
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_EQ(c.cases[0].verdict, Verdict::unsure);
    EXPECT_NE(c.cases[0].reason.find("candidate measured while the host was busy"), std::string::npos)
        << c.cases[0].reason;
    EXPECT_FALSE(c.regression());
    // The same times, not flagged, are a regression: the flag alone makes the difference.
    busy.sampling_stop = sampling_stop::kConverged;
    EXPECT_TRUE(compare_runs(quiet, run(2, {busy}), defaults()).regression());
    // A busy base is no more a yardstick than a busy candidate.
    CaseRecord busy_base = record("naive", "{}", around(0.01));
    busy_base.sampling_stop = sampling_stop::kHostBusy;
    const Comparison b = compare_runs(run(3, {busy_base}), quiet, defaults());
    EXPECT_EQ(b.cases[0].verdict, Verdict::unsure);
    EXPECT_NE(b.cases[0].reason.find("base measured"), std::string::npos) << b.cases[0].reason;
}

TEST(CompareRuns, ASlowerOrFailedCaseIsARegression) {
    const LoadedRun a = run(1, {record("naive", "{}", around(1.0)), record("flash", "{}", around(1.0))});
    const LoadedRun slow = run(2, {record("naive", "{}", around(1.21)), record("flash", "{}", around(1.0))});
    const Comparison c = compare_runs(a, slow, defaults());
    EXPECT_EQ(c.count(Verdict::slower), 1u);
    EXPECT_TRUE(c.regression());
    EXPECT_NEAR(c.geomean.ratio, 1.1, 1e-9);  // sqrt(1.21 * 1)
    EXPECT_LT(c.geomean.ci.lo, c.geomean.ratio + 1e-12);
    EXPECT_GT(c.geomean.ci.hi, c.geomean.ratio - 1e-12);

    const LoadedRun broken =
        run(3, {record("naive", "{}", {}, CaseStatus::wrong_result), record("flash", "{}", around(1.0))});
    const Comparison f = compare_runs(a, broken, defaults());
    EXPECT_EQ(f.count(Verdict::failed), 1u);
    EXPECT_TRUE(f.regression());
    EXPECT_NE(f.cases[1].reason.find("wrong_result"), std::string::npos) << f.cases[1].reason;

    // Broken in the base but fine now: nothing to compare with, not a regression.
    const Comparison fixed = compare_runs(broken, a, defaults());
    EXPECT_FALSE(fixed.regression());
    EXPECT_EQ(fixed.count(Verdict::unsure), 1u);
}

TEST(CompareRuns, RefusesOtherDevicesUnlessAskedThenNormalisesByTheRoof) {
    LoadedRun a = run(1, {record("naive", "{}", around(1e-2))});
    LoadedRun b = run(2, {record("naive", "{}", around(5e-3))}, "NVIDIA H100");
    try {
        compare_runs(a, b, defaults());
        FAIL() << "expected a UsageError";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("--cross-device"), std::string::npos) << e.what();
    }
    // 1 GFLOP over 0.1 GB of DRAM traffic: 10 FLOP/B. Base roof min(1e11, 10 * 1e10) = 1e11
    // FLOP/s, reached in full by 10 ms. Candidate roof min(1e12, 10 * 2e11) = 1e12 FLOP/s, of
    // which 5 ms (2e11 FLOP/s) reaches 20%: five times further from its roof.
    a.ceilings.items = {{"dram", CeilingKind::bandwidth, 1e10, "B/s", "test", 0},
                        {"fp32_fma", CeilingKind::compute, 1e11, "FLOP/s", "test", 0}};
    b.ceilings.items = {{"dram", CeilingKind::bandwidth, 2e11, "B/s", "test", 0},
                        {"fp32_fma", CeilingKind::compute, 1e12, "FLOP/s", "test", 0}};
    CompareOptions cross;
    cross.cross_device = true;
    const Comparison c = compare_runs(a, b, cross);
    EXPECT_TRUE(c.normalised);
    ASSERT_FALSE(c.warnings.empty());
    EXPECT_NE(c.warnings[0].find("different devices"), std::string::npos) << c.warnings[0];
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_NEAR(c.cases[0].ratio, 5.0, 1e-9);
    EXPECT_NEAR(c.cases[0].base.percent_of_roof, 100, 1e-9);
    EXPECT_NEAR(c.cases[0].candidate.percent_of_roof, 20, 1e-9);
    EXPECT_DOUBLE_EQ(c.cases[0].candidate.median, 5e-3);  // seconds stay seconds
    EXPECT_EQ(c.cases[0].verdict, Verdict::slower);

    // Without ceilings there is nothing to normalise by.
    b.ceilings = {};
    const Comparison none = compare_runs(a, b, cross);
    EXPECT_EQ(none.cases[0].verdict, Verdict::unsure);
    EXPECT_NE(none.cases[0].reason.find("cannot normalise"), std::string::npos) << none.cases[0].reason;
}

TEST(CompareRuns, OtherBackendsMatchWithoutTheBackendWhenCrossDevice) {
    LoadedRun a = run(1, {record("flash", "{}", around(1.0))});
    LoadedRun b = run(2, {record("flash", "{}", around(1.0))});
    b.info.backend = "cuda-emu";
    b.cases[0].key.backend = "cuda-emu";
    EXPECT_THROW(compare_runs(a, b, defaults()), UsageError);
    CompareOptions cross;
    cross.cross_device = true;
    const Comparison c = compare_runs(a, b, cross);
    EXPECT_EQ(c.cases.size(), 1u);
    EXPECT_TRUE(c.only_in_base.empty());
}

TEST(CompareRuns, WarnsAboutOneRepetitionAndIncompleteRuns) {
    LoadedRun a = run(1, {record("naive", "{}", around(1.0))});
    LoadedRun b = run(2, {record("naive", "{}", around(1.0))});
    b.info.status = RunStatus::interrupted;
    const Comparison c = compare_runs(a, b, defaults());
    ASSERT_EQ(c.warnings.size(), 2u);
    EXPECT_NE(c.warnings[0].find("interrupted"), std::string::npos) << c.warnings[0];
    EXPECT_NE(c.warnings[1].find("repetitions"), std::string::npos) << c.warnings[1];
}

TEST(CompareRuns, BootstrapIsReproducibleAndIndependentOfCaseOrder) {
    const LoadedRun a = run(1, {record("naive", "{}", around(1.0, 0.02)), record("flash", "{}", around(1.0, 0.02))});
    const LoadedRun b = run(2, {record("naive", "{}", around(1.03, 0.02)), record("flash", "{}", around(1.0, 0.02))});
    LoadedRun b_reversed = b;
    std::swap(b_reversed.cases[0], b_reversed.cases[1]);
    const Comparison x = compare_runs(a, b, defaults()), y = compare_runs(a, b_reversed, defaults());
    ASSERT_EQ(x.cases.size(), y.cases.size());
    for (std::size_t i = 0; i < x.cases.size(); ++i) {
        EXPECT_EQ(x.cases[i].ci.lo, y.cases[i].ci.lo);
        EXPECT_EQ(x.cases[i].ci.hi, y.cases[i].ci.hi);
    }
}

TEST(CompareRuns, RunsTaggedAsMeasuredTogetherArePaired) {
    const auto [b, c] = drifting_pairs();
    CaseRecord rb = record("naive", "{}", {}), rc = record("naive", "{}", {});
    rb.samples = b;
    rc.samples = c;
    LoadedRun base = run(1, {rb}), cand = run(2, {rc});
    EXPECT_FALSE(compare_runs(base, cand, defaults()).paired);
    cand.info.tags["paired_with"] = "1";
    const Comparison paired = compare_runs(base, cand, defaults());
    EXPECT_TRUE(paired.paired);
    EXPECT_EQ(paired.cases.at(0).basis, "paired repetitions");
    EXPECT_EQ(paired.cases.at(0).verdict, Verdict::slower);
    EXPECT_TRUE(compare_runs(cand, base, defaults()).paired);  // either order
    cand.database = "other.db";                                // run 1 of another database is another run
    EXPECT_FALSE(compare_runs(base, cand, defaults()).paired);
}

TEST(LoadRun, ReadsTheStoreAndRefusesMissingRuns) {
    test::TempDir dir;
    Store store = Store::open(dir.file("t.db"), Store::Mode::create);
    RunInfo info;
    info.device = "cpu";
    const std::int64_t id = store.begin_run(info);
    CaseRecord c = record("naive", "{}", around(1.0));
    c.run_id = id;
    store.save_case(c);
    const LoadedRun r = load_run(store, id);
    EXPECT_EQ(r.info.id, id);
    EXPECT_EQ(r.database, dir.file("t.db"));
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_EQ(r.cases[0].samples.size(), 1u);
    EXPECT_THROW(load_run(store, id + 1), InputError);
}

}  // namespace
}  // namespace memwall
