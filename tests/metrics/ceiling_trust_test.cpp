// The busy detector and the hierarchy check on synthetic trials: no timing, so the verdicts
// are the same on a busy or an idle machine.
#include "metrics/ceiling_trust.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace memwall {
namespace {

// Rounds as best_rate makes them: doubling repetitions, then full-length rounds.
std::vector<TrialRound> rounds(double cpu_share, std::vector<double> full_rates, bool together = true) {
    std::vector<TrialRound> r;
    for (long reps : {1L, 2L, 4L}) {
        const double wall = 1e-3 * static_cast<double>(reps);
        r.push_back({cpu_share * wall, wall, 0.3e9, reps, together});
    }
    for (double rate : full_rates) r.push_back({cpu_share * 8e-3, 8e-3, rate, 8, together});
    return r;
}

TEST(BusyReason, ThreadsThatHadTheCpusAreTrusted) {
    // Slow first rounds (caches and clocks warming up) and a few percent of noise are normal.
    EXPECT_EQ(busy_reason(rounds(0.99, {100e9, 97e9, 103e9, 99e9})), "");
    EXPECT_EQ(busy_reason(rounds(1.01, {100e9})), "");  // CPU clock read just outside the wall clock
}

TEST(BusyReason, ThreadsThatTookTurnsWithAnotherProcessAreBusy) {
    const std::string why = busy_reason(rounds(0.62, {100e9, 99e9, 101e9}));
    EXPECT_NE(why.find("busy"), std::string::npos) << why;
    EXPECT_NE(why.find("62%"), std::string::npos) << why;
    EXPECT_EQ(busy_reason(rounds(0.85, {100e9, 99e9, 101e9})).empty(), false);
}

TEST(BusyReason, NoRoundWithAllThreadsTogetherIsBusy) {
    const std::string why = busy_reason(rounds(0.99, {100e9, 99e9, 101e9}, false));
    EXPECT_NE(why.find("never ran together"), std::string::npos) << why;
    // One round together is enough: it is the one the rate comes from.
    auto some = rounds(0.99, {100e9, 99e9, 101e9}, false);
    some.back().together = true;
    EXPECT_EQ(busy_reason(some), "");
}

TEST(RanTogether, ThreadsThatStartedTogetherRanTogetherHoweverUnevenlyTheyFinished) {
    // Equal work on unequal cores (two vCPUs on one physical core) finishes up to 2x apart.
    const std::vector<double> starts{0, 2e-6, 1e-6, 3e-6}, ends{1e-3, 2e-3, 1.1e-3, 1.9e-3};
    EXPECT_TRUE(ran_together(starts, ends));
    const std::vector<double> even{1e-3, 1e-3, 1e-3, 1e-3};
    EXPECT_TRUE(ran_together(starts, even));
}

TEST(RanTogether, AThreadThatStartedASliceLateDidNot) {
    // The last thread got its CPU 0.4 ms into a 1.4 ms round.
    const std::vector<double> starts{0, 1e-6, 4e-4}, ends{1e-3, 1e-3, 1.4e-3};
    EXPECT_FALSE(ran_together(starts, ends));
    EXPECT_FALSE(ran_together(std::vector<double>{}, std::vector<double>{}));
    EXPECT_FALSE(ran_together(std::vector<double>{0, 0}, std::vector<double>{0, 0}));  // no time passed
}

TEST(BusyReason, FullLengthRoundsSpreadFarApartAreBusy) {
    // The threads had their CPU time, but something else used the cores' caches or memory.
    const std::string why = busy_reason(rounds(0.99, {100e9, 30e9, 35e9, 31e9, 40e9}));
    EXPECT_NE(why.find("spread"), std::string::npos) << why;
    // Only full-length rounds count: the short first rounds are slower for other reasons.
    auto warm = rounds(0.99, {100e9, 95e9, 98e9});
    warm[0].rate = 1e9;
    EXPECT_EQ(busy_reason(warm), "");
    // Fewer than three full-length rounds give no spread to judge.
    EXPECT_EQ(busy_reason(rounds(0.99, {100e9, 20e9})), "");
}

TEST(BusyReason, NothingMeasuredIsNotTrusted) { EXPECT_FALSE(busy_reason({}).empty()); }

std::vector<Ceiling> levels(double l1, double l2, double llc, double dram) {
    return {{"l1", CeilingKind::bandwidth, l1, "B/s", "m", 32768},
            {"l2", CeilingKind::bandwidth, l2, "B/s", "m", 1 << 20},
            {"llc", CeilingKind::bandwidth, llc, "B/s", "m", 32 << 20},
            {"dram", CeilingKind::bandwidth, dram, "B/s", "m", 0},
            {"fp32_fma", CeilingKind::compute, 1e9, "FLOP/s", "m", 0}};  // never compared with bytes
}

TEST(Hierarchy, LevelsInOrderAreLeftAlone) {
    auto c = levels(400e9, 200e9, 200e9, 30e9);  // equal levels are no violation
    EXPECT_TRUE(flag_hierarchy_violations(c).empty());
    for (const Ceiling& x : c) EXPECT_TRUE(x.reliable()) << x.name;
}

TEST(Hierarchy, AnInnerLevelSlowerThanAnOuterFlagsBoth) {
    auto c = levels(400e9, 80e9, 120e9, 30e9);
    const auto v = flag_hierarchy_violations(c);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].inner, "l2");
    EXPECT_EQ(v[0].outer, "llc");
    EXPECT_NE(c[1].unreliable.find("slower than llc (80.0 < 120.0 GB/s)"), std::string::npos) << c[1].unreliable;
    EXPECT_NE(c[2].unreliable.find("faster than l2 (120.0 > 80.0 GB/s)"), std::string::npos) << c[2].unreliable;
    EXPECT_TRUE(c[0].reliable());
    EXPECT_TRUE(c[3].reliable());
    EXPECT_TRUE(c[4].reliable());
}

TEST(Hierarchy, LevelsAreOrderedByCapacityWithDramOutermost) {
    // Stored in any order, with a level missing: l1 is still compared with dram.
    std::vector<Ceiling> c = {{"dram", CeilingKind::bandwidth, 50e9, "B/s", "m", 0},
                              {"l1", CeilingKind::bandwidth, 40e9, "B/s", "m", 32768}};
    const auto v = flag_hierarchy_violations(c);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].inner, "l1");
    EXPECT_EQ(v[0].outer, "dram");
    EXPECT_FALSE(c[0].reliable());
    EXPECT_FALSE(c[1].reliable());
}

TEST(Hierarchy, EachFlaggedLevelNamesTheNearestLevelItContradicts) {
    auto c = levels(10e9, 200e9, 100e9, 30e9);  // l1 below all three outer levels
    EXPECT_EQ(flag_hierarchy_violations(c).size(), 3u);
    EXPECT_EQ(c[0].unreliable, "slower than l2 (10.0 < 200.0 GB/s), a level outside it");
    EXPECT_EQ(c[3].unreliable, "faster than l1 (30.0 > 10.0 GB/s), a level inside it");
}

TEST(Hierarchy, ABusyReasonIsKeptBesideTheViolation) {
    auto c = levels(400e9, 80e9, 120e9, 30e9);
    c[1].unreliable = "measured while the machine was busy: the threads ran 60% of the time";
    flag_hierarchy_violations(c);
    flag_hierarchy_violations(c);  // checked twice, said once
    EXPECT_EQ(c[1].unreliable,
              "measured while the machine was busy: the threads ran 60% of the time; slower than llc "
              "(80.0 < 120.0 GB/s), a level outside it");
}

}  // namespace
}  // namespace memwall

namespace memwall {
namespace {

// Sapphire Rapids at 2.6 GHz, two cores: 2 x 16 x 2 x 2.6e9 x 2 = 332.8 GFLOP/s.
constexpr FmaLimit kSpr{2, 16, 2.6e9, 2};

TEST(FmaPeakCheck, APeakWithinTheCoresLimitIsTrusted) {
    EXPECT_DOUBLE_EQ(kSpr.flops_per_second(), 332.8e9);
    EXPECT_EQ(kSpr.describe(), "2 FMA units x 16 lanes x 2 FLOP x 2.60 GHz (measured) x 2 threads");
    EXPECT_EQ(fma_peak_check(320e9, kSpr), "");
    EXPECT_EQ(fma_peak_check(0.51 * 332.8e9, kSpr), "");
}

TEST(FmaPeakCheck, APeakAboveTheLimitOrBelowHalfOfItIsNot) {
    const std::string above = fma_peak_check(400e9, kSpr);
    EXPECT_EQ(above.rfind("above the cores' limit (120% of 2 FMA units", 0), 0u) << above;
    const std::string below = fma_peak_check(115e9, kSpr);  // the AVX-512 peak of one FMA unit, half the clock
    EXPECT_EQ(below.rfind("below half the cores' limit (35% of ", 0), 0u) << below;
    EXPECT_EQ(fma_peak_check(115e9, FmaLimit{}), "");  // no limit known: nothing to check against
}

TEST(CeilingsMoved, ThoseThatMovedMoreThanATenthAreFlagged) {
    std::vector<Ceiling> start{{"l1", CeilingKind::bandwidth, 100e9, "B/s", "", 48e3},
                               {"dram", CeilingKind::bandwidth, 30.1e9, "B/s", "", 0},
                               {"fp32_fma", CeilingKind::compute, 400e9, "FLOP/s", "", 0}};
    const std::vector<Ceiling> end{{"l1", CeilingKind::bandwidth, 109e9, "B/s", "", 48e3},
                                   {"dram", CeilingKind::bandwidth, 22e9, "B/s", "", 0}};
    EXPECT_EQ(flag_moved_ceilings(start, end), std::vector<std::string>{"dram"});
    EXPECT_TRUE(start[0].reliable());
    EXPECT_EQ(start[1].unreliable, "moved from 30.1 GB/s to 22.0 GB/s between the run's start and end");
    EXPECT_TRUE(start[2].reliable());  // not measured again: nothing to say
}

TEST(RaiseCeilings, TheHigherOfTwoMeasurementsIsKept) {
    std::vector<Ceiling> have{{"l1", CeilingKind::bandwidth, 100e9, "B/s", "copy", 48e3},
                              {"dram", CeilingKind::bandwidth, 30e9, "B/s", "read", 0}};
    have[0].unreliable = "measured while the machine was busy";
    const std::vector<Ceiling> again{{"l1", CeilingKind::bandwidth, 180e9, "B/s", "read-only reduction", 48e3},
                                     {"dram", CeilingKind::bandwidth, 25e9, "B/s", "copy", 0}};
    EXPECT_EQ(raise_ceilings(have, again), std::vector<std::string>{"l1"});
    EXPECT_EQ(have[0].value, 180e9);
    EXPECT_EQ(have[0].method, "read-only reduction");
    EXPECT_TRUE(have[0].reliable());
    EXPECT_EQ(have[1].value, 30e9);
}

}  // namespace
}  // namespace memwall
