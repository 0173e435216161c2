#include "profiler/measure_ceilings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace memwall {
namespace {

constexpr double KiB = 1024, MiB = 1024 * KiB;

// 32 KiB L1 and 1 MiB L2 per core, 32 MiB LLC shared by both: with 2 threads the levels hold
// 64 KiB, 2 MiB and 32 MiB in all.
MemoryHierarchy two_cores() { return {{{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}}, 2}; }

double true_rate(double ws) {
    if (ws <= 64 * KiB) return 400e9;
    if (ws <= 2 * MiB) return 200e9;
    if (ws <= 32 * MiB) return 100e9;
    return 30e9;
}

std::vector<BandwidthSample> step_curve(double max_ws) {
    std::vector<BandwidthSample> c;
    for (double ws = 8 * KiB; ws <= max_ws; ws *= 1.25) c.push_back({ws, true_rate(ws)});
    return c;
}

TEST(BandwidthPlateaus, CleanSteps) {
    auto ceilings = bandwidth_plateaus(step_curve(512 * MiB), two_cores(), 2);
    ASSERT_EQ(ceilings.size(), 4u);
    const char* names[] = {"l1", "l2", "llc", "dram"};
    const double rates[] = {400e9, 200e9, 100e9, 30e9};
    const double capacity[] = {32 * KiB, 1 * MiB, 32 * MiB, 0};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(ceilings[i].name, names[i]);
        EXPECT_EQ(ceilings[i].kind, CeilingKind::bandwidth);
        EXPECT_EQ(ceilings[i].unit, "B/s");
        EXPECT_DOUBLE_EQ(ceilings[i].value, rates[i]) << names[i];
        EXPECT_EQ(ceilings[i].capacity_bytes, capacity[i]) << names[i];
        EXPECT_NE(ceilings[i].method.find("ERT a=a*b+c"), std::string::npos);
        EXPECT_NE(ceilings[i].method.find("2 threads"), std::string::npos);
    }
    // The L2 segment runs from twice the L1 total (128 KiB) to 3/4 of the L2 total (1.5 MiB);
    // the method names the samples inside it: 8 KiB x 1.25^13 to 8 KiB x 1.25^23.
    EXPECT_NE(ceilings[1].method.find("working sets 146 KiB-1.32 MiB"), std::string::npos) << ceilings[1].method;
}

TEST(BandwidthPlateaus, NoisyStepsWithTransitionsSpikesAndDips) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> jitter(0.95, 1.03);
    auto curve = step_curve(512 * MiB);
    for (std::size_t i = 0; i < curve.size(); ++i) {
        auto& s = curve[i];
        // Caches drain gradually past their capacity: the next plateau is reached at 1.5x.
        double prev = 0;
        for (double cap : {64 * KiB, 2 * MiB, 32 * MiB})
            if (s.working_set_bytes > cap && s.working_set_bytes < 1.5 * cap) prev = true_rate(cap);
        if (prev > 0) s.bytes_per_second = 0.5 * (prev + s.bytes_per_second);
        s.bytes_per_second *= jitter(rng);
        if (i % 7 == 3) s.bytes_per_second *= 0.5;  // interference from other processes
    }
    // One timing glitch per segment, far above any real rate.
    for (double ws : {32 * KiB, 512 * KiB, 8 * MiB, 256 * MiB}) {
        auto it = std::min_element(curve.begin(), curve.end(), [&](const auto& a, const auto& b) {
            return std::abs(a.working_set_bytes - ws) < std::abs(b.working_set_bytes - ws);
        });
        it->bytes_per_second *= 3;
    }
    std::shuffle(curve.begin(), curve.end(), rng);

    auto ceilings = bandwidth_plateaus(curve, two_cores(), 2);
    ASSERT_EQ(ceilings.size(), 4u);
    const double rates[] = {400e9, 200e9, 100e9, 30e9};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(ceilings[i].value / rates[i], 1.0, 0.04) << ceilings[i].name;
}

TEST(BandwidthPlateaus, LevelsWithoutSamplesAreLeftOut) {
    // Up to 4 MiB: the LLC segment (4-24 MiB) and DRAM (from 128 MiB) have no sample.
    auto ceilings = bandwidth_plateaus(step_curve(4 * MiB), two_cores(), 2);
    ASSERT_EQ(ceilings.size(), 2u);
    EXPECT_EQ(ceilings[0].name, "l1");
    EXPECT_EQ(ceilings[1].name, "l2");

    // A gap between the L1 sizes and the DRAM sizes.
    std::vector<BandwidthSample> gap{{16 * KiB, 400e9}, {32 * KiB, 400e9}, {256 * MiB, 30e9}, {512 * MiB, 30e9}};
    ceilings = bandwidth_plateaus(gap, two_cores(), 2);
    ASSERT_EQ(ceilings.size(), 2u);
    EXPECT_EQ(ceilings[0].name, "l1");
    EXPECT_EQ(ceilings[1].name, "dram");
    EXPECT_EQ(ceilings[1].value, 30e9);

    EXPECT_TRUE(bandwidth_plateaus({}, two_cores(), 2).empty());
}

TEST(BandwidthPlateaus, LevelsLeftOutAreReportedWithTheirSegment) {
    const auto missing = levels_not_found(step_curve(4 * MiB), two_cores(), 2);
    ASSERT_EQ(missing.size(), 2u);
    EXPECT_EQ(missing[0].rfind("llc: no working set of the sweep in its segment", 0), 0u) << missing[0];
    EXPECT_NE(missing[0].find("4 MiB (exclusive) to 24 MiB"), std::string::npos) << missing[0];
    EXPECT_EQ(missing[1].rfind("dram:", 0), 0u) << missing[1];
    EXPECT_NE(missing[1].find("upwards"), std::string::npos) << missing[1];
    EXPECT_TRUE(levels_not_found(step_curve(512 * MiB), two_cores(), 2).empty());
}

TEST(BandwidthPlateaus, ThreadsScaleTheSegments) {
    // With one thread the L1 segment ends at 24 KiB and the L2 one starts at 64 KiB, so 48 KiB
    // (a transition) counts for neither; DRAM starts at 4 x 16 MiB.
    std::vector<BandwidthSample> c{{16 * KiB, 300e9}, {48 * KiB, 300e9}, {128 * MiB, 20e9}};
    auto one = bandwidth_plateaus(c, two_cores(), 1);
    ASSERT_EQ(one.size(), 2u);
    EXPECT_EQ(one[0].name, "l1");
    EXPECT_EQ(one[1].name, "dram");
    EXPECT_NE(one[0].method.find("16 KiB-16 KiB"), std::string::npos) << one[0].method;
}

TEST(BandwidthPlateaus, ALevelWithWorkingSetsMeasuredWhileBusyIsFlagged) {
    auto curve = step_curve(512 * MiB);
    int l2_busy = 0;
    for (auto& s : curve) {
        // Two working sets in the L2 segment (128 KiB, 1.5 MiB]; one in a transition (none).
        if ((s.working_set_bytes > 200 * KiB && s.working_set_bytes < 300 * KiB) ||
            (s.working_set_bytes > 2 * MiB && s.working_set_bytes < 2.5 * MiB)) {
            s.unreliable = "measured while the machine was busy: the threads ran 60% of the time";
            l2_busy += s.working_set_bytes < MiB;
        }
    }
    ASSERT_EQ(l2_busy, 2);
    const auto c = bandwidth_plateaus(curve, two_cores(), 2);
    ASSERT_EQ(c.size(), 4u);
    EXPECT_TRUE(c[0].reliable());
    EXPECT_EQ(c[1].unreliable.rfind("measured while the machine was busy: the threads ran 60% of the time (2 of ", 0),
              0u)
        << c[1].unreliable;
    EXPECT_NE(c[1].unreliable.find(" working sets)"), std::string::npos) << c[1].unreliable;
    EXPECT_TRUE(c[2].reliable());
    EXPECT_TRUE(c[3].reliable());
    // The method text is the same whether flagged or not.
    EXPECT_EQ(c[1].method, bandwidth_plateaus(step_curve(512 * MiB), two_cores(), 2)[1].method);
}

TEST(BandwidthPlateaus, EachLevelTakesTheBestKernelAndNamesIt) {
    // The reduction leads in the caches, nontemporal stores in DRAM, a=a*b+c nowhere.
    std::vector<BandwidthSample> curve;
    for (const BandwidthSample& s : step_curve(512 * MiB)) {
        const double ws = s.working_set_bytes, rate = s.bytes_per_second;
        curve.push_back({ws, rate, "", BandwidthKernel::axpb});
        curve.push_back({ws, ws <= 32 * MiB ? 1.5 * rate : 0.8 * rate, "", BandwidthKernel::read});
        if (ws > 16 * MiB)
            curve.push_back({ws, ws > 32 * MiB ? 1.2 * rate : 0.5 * rate, "", BandwidthKernel::nt_store});
    }
    const auto c = bandwidth_plateaus(curve, two_cores(), 2);
    ASSERT_EQ(c.size(), 4u);
    EXPECT_DOUBLE_EQ(c[0].value, 600e9);
    EXPECT_EQ(c[0].method.rfind("read-only reduction, ", 0), 0u) << c[0].method;
    EXPECT_NE(c[0].method.find("the best of 2 kernels"), std::string::npos) << c[0].method;
    EXPECT_DOUBLE_EQ(c[2].value, 150e9);
    EXPECT_NE(c[2].method.find("the best of 3 kernels"), std::string::npos) << c[2].method;
    EXPECT_DOUBLE_EQ(c[3].value, 36e9);
    EXPECT_EQ(c[3].method.rfind("nontemporal stores, ", 0), 0u) << c[3].method;
}

TEST(BandwidthPlateaus, ABusyKernelThatIsNotTheBestLeavesTheLevelTrusted) {
    std::vector<BandwidthSample> curve;
    for (const BandwidthSample& s : step_curve(512 * MiB)) {
        curve.push_back({s.working_set_bytes, s.bytes_per_second, "", BandwidthKernel::read});
        curve.push_back({s.working_set_bytes, 0.5 * s.bytes_per_second, "measured while the machine was busy",
                         BandwidthKernel::copy});
    }
    for (const Ceiling& c : bandwidth_plateaus(curve, two_cores(), 2)) EXPECT_TRUE(c.reliable()) << c.name;
}

TEST(MeasureCpuCeilings, RejectsBadOptions) {
    CeilingOptions o;
    o.growth = 1;
    EXPECT_THROW(measure_cpu_ceilings(two_cores(), o), std::invalid_argument);
    o = {};
    o.seconds_per_point = 0;
    EXPECT_THROW(measure_cpu_ceilings(two_cores(), o), std::invalid_argument);
    o = {};
    o.retries = -1;
    EXPECT_THROW(measure_cpu_ceilings(two_cores(), o), std::invalid_argument);
    o = {};
    o.dram_budget_factor = 0.5;
    EXPECT_THROW(measure_cpu_ceilings(two_cores(), o), std::invalid_argument);
    o = {};
    o.isa = "sse2";
    EXPECT_THROW(measure_cpu_ceilings(two_cores(), o), std::invalid_argument);
}

// A level measured again (a case ran above it) is measured alone: its segment's working sets,
// nothing beyond them, no FMA peak.
TEST(MeasureCpuCeilings, OnlyTheLevelsAskedFor) {
    const MemoryHierarchy mh = detect_memory_hierarchy();
    CeilingOptions o;
    o.threads = mh.cpus;
    o.levels = {mh.caches.front().name};
    o.seconds_per_point = 0.002;
    o.retries = 0;
    const CeilingMeasurement m = measure_cpu_ceilings(mh, o);
    const double l1_total = static_cast<double>(mh.per_thread_bytes(mh.caches.front().name)) * mh.cpus;
    ASSERT_FALSE(m.bandwidth_curve.empty());
    for (const auto& s : m.bandwidth_curve) EXPECT_LE(s.working_set_bytes, 0.75 * l1_total) << s.working_set_bytes;
    for (const auto& c : m.ceilings.items) EXPECT_EQ(c.name, mh.caches.front().name);
    EXPECT_EQ(m.ceilings.find("fp32_fma"), nullptr);
    EXPECT_TRUE(m.not_found.empty());
}

// Plausibility, not speed: a short sweep that still reaches the DRAM segment.
TEST(MeasureCpuCeilings, SmokeRunIsPlausible) {
    MemoryHierarchy mh = detect_memory_hierarchy();
    CeilingOptions o;
    const double llc_total = static_cast<double>(mh.per_thread_bytes(mh.caches.back().name)) * mh.cpus;
    // 8 sizes, the last one in DRAM. Rounds must outlast the scheduling delays of a busy
    // machine, so the budget is not cut further.
    o.max_working_set = 4.5 * llc_total;
    o.growth = 4;
    o.min_working_set = o.max_working_set / (1 << 14);
    o.seconds_per_point = 0.01;
    o.dram_budget_factor = 1;
    std::vector<double> progress;
    o.progress = [&](double p) { progress.push_back(p); };

    CeilingMeasurement m = measure_cpu_ceilings(mh, o);

    // Every kernel over the 8 sizes but nontemporal stores, which start at half the LLC.
    for (BandwidthKernel k : kAllBandwidthKernels) {
        std::vector<BandwidthSample> of_k;
        for (const auto& s : m.bandwidth_curve)
            if (s.kernel == k) of_k.push_back(s);
        if (k == BandwidthKernel::nt_store) {
            ASSERT_FALSE(of_k.empty());
            EXPECT_GT(of_k.front().working_set_bytes, llc_total / 2);
        } else {
            ASSERT_EQ(of_k.size(), 8u) << to_string(k);
        }
        for (std::size_t i = 0; i < of_k.size(); ++i) {
            EXPECT_GT(of_k[i].bytes_per_second, 0);
            if (i > 0) {
                EXPECT_GT(of_k[i].working_set_bytes, of_k[i - 1].working_set_bytes);
            }
        }
        EXPECT_LE(of_k.back().working_set_bytes, 4.5 * llc_total * 1.01);
    }
    ASSERT_FALSE(progress.empty());
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
    EXPECT_EQ(progress.back(), 1.0);

    // What must hold on any host, idle or busy: DRAM (working sets up to 4.5x the LLC) and the
    // FMA peak are measured, and every cache level is either measured or reported as not found
    // (with 8 sizes 4x apart a level's segment may hold none: a 48 KiB L1 next to a 480 MiB L3).
    // Their order (L1 above DRAM) is a claim about the machine's speed, which a 10 ms point on a
    // loaded machine cannot keep; `memwall ceilings` and the benchmarks show it.
    for (const CacheLevel& level : mh.caches) {
        const bool found = m.ceilings.find(level.name) != nullptr;
        const bool reported = std::any_of(m.not_found.begin(), m.not_found.end(),
                                          [&](const std::string& s) { return s.rfind(level.name + ":", 0) == 0; });
        EXPECT_NE(found, reported) << level.name;
        if (found) {
            EXPECT_GT(m.ceilings.find(level.name)->value, 0) << level.name;
        }
    }
    const Ceiling* dram = m.ceilings.find("dram");
    const Ceiling* fma = m.ceilings.find("fp32_fma");
    ASSERT_NE(dram, nullptr);
    ASSERT_NE(fma, nullptr);
    EXPECT_GT(dram->value, 0);
    EXPECT_EQ(fma->kind, CeilingKind::compute);
    EXPECT_EQ(fma->unit, "FLOP/s");
    EXPECT_GT(fma->value, 0);
    EXPECT_EQ(m.ceilings.compute_peak("fp32_fma"), fma->value);
    // Busy or idle, levels out of order are never both trusted: retried, then flagged.
    for (const auto& inner : m.ceilings.items) {
        for (const auto& outer : m.ceilings.items) {
            if (inner.kind != CeilingKind::bandwidth || outer.kind != CeilingKind::bandwidth) continue;
            const double in = inner.capacity_bytes > 0 ? inner.capacity_bytes : HUGE_VAL;
            const double out = outer.capacity_bytes > 0 ? outer.capacity_bytes : HUGE_VAL;
            if (in < out && inner.value < outer.value) {
                EXPECT_FALSE(inner.reliable()) << inner.name << " < " << outer.name;
                EXPECT_FALSE(outer.reliable()) << inner.name << " < " << outer.name;
            }
        }
    }
    for (const auto& c : m.ceilings.items)
        std::printf("%-9s %10.1f G%-6s %s%s%s\n", c.name.c_str(), c.value / 1e9, c.unit.c_str(), c.method.c_str(),
                    c.reliable() ? "" : "; unreliable: ", c.unreliable.c_str());
}

}  // namespace
}  // namespace memwall
