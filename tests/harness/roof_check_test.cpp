#include "harness/roof_check.hpp"

#include <gtest/gtest.h>

namespace memwall {
namespace {

// L1 100 GB/s, DRAM 20 GB/s, FMA 500 GFLOP/s; a CUDA device's DRAM beside them.
Ceilings host() {
    Ceilings c;
    c.items = {{"l1", CeilingKind::bandwidth, 100e9, "B/s", "read-only reduction", 48e3},
               {"dram", CeilingKind::bandwidth, 20e9, "B/s", "nontemporal stores", 0},
               {"fp32_fma", CeilingKind::compute, 500e9, "FLOP/s", "FMA chains", 0},
               {"cuda:dram", CeilingKind::bandwidth, 3e12, "B/s", "theoretical", 0}};
    return c;
}

const std::vector<std::string> kRoofs{"l1", "dram", "fp32_fma"};

// A copy of `bytes` at `level` in 1 ms (with `flops`), as a stored case.
CaseRecord timed_case(std::string level, double bytes, double flops = 0, std::string backend = "cpu") {
    CaseRecord c;
    c.key = {"stream", "copy", std::move(backend), R"({"n":4096})", "{}"};
    c.summary.n = 10;
    c.summary.median = 1e-3;
    c.counters = {{"bytes." + level, bytes, "B", CounterSource::model}};
    if (flops > 0) c.counters.push_back({"flops", flops, "FLOP", CounterSource::model});
    return c;
}

TEST(RoofCheck, CasesBelowTheirRoofsProveNothing) {
    EXPECT_TRUE(cases_above_roofs({timed_case("l1", 99e6), timed_case("dram", 20e6)}, host(), kRoofs).empty());
}

TEST(RoofCheck, ACaseAboveALevelOrThePeakIsFound) {
    // 30 MB in 1 ms at DRAM is 30 GB/s, 150% of 20; 0.6 GFLOP in 1 ms is 120% of the peak.
    const auto e = cases_above_roofs({timed_case("dram", 30e6, 0.6e9)}, host(), kRoofs);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].ceiling, "dram");
    EXPECT_NEAR(e[0].percent, 150, 1e-9);
    EXPECT_EQ(e[0].label, "stream/copy/cpu n=4096");
    EXPECT_EQ(e[0].source, "model");
    EXPECT_EQ(e[1].ceiling, "fp32_fma");
    EXPECT_NEAR(e[1].percent, 120, 1e-9);
    EXPECT_EQ(roofs_beaten(e), (std::vector<std::string>{"dram", "fp32_fma"}));
}

TEST(RoofCheck, OnlyTimedCpuCasesAndTheRoofsAskedAbout) {
    CaseRecord wrong = timed_case("dram", 30e6);
    wrong.status = CaseStatus::wrong_result;
    CaseRecord untimed = timed_case("dram", 30e6);
    untimed.summary.n = 0;
    // The emulator's times are not the host's speed; a GPU case has the device's roofs.
    const std::vector<CaseRecord> cases{wrong, untimed, timed_case("dram", 30e6, 0, "cuda-emu"),
                                        timed_case("dram", 30e6, 0, "cuda")};
    EXPECT_TRUE(cases_above_roofs(cases, host(), kRoofs).empty());
    EXPECT_TRUE(cases_above_roofs({timed_case("dram", 30e6)}, host(), {"l1"}).empty());
}

TEST(RoofCheck, ARoofACaseStillBeatsIsFlaggedWithTheWorstCase) {
    Ceilings c = host();
    auto e = cases_above_roofs({timed_case("dram", 24e6), timed_case("dram", 30e6)}, c, kRoofs);
    ASSERT_EQ(e.size(), 2u);
    flag_beaten_roofs(c.items, e);
    EXPECT_TRUE(c.find("l1")->reliable());
    EXPECT_EQ(c.find("dram")->unreliable, "a case ran at 150% of it (stream/copy/cpu n=4096, from model)");
}

}  // namespace
}  // namespace memwall
