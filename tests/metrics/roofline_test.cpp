#include "metrics/roofline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace memwall {
namespace {

Ceilings machine() {
    Ceilings c;
    c.items = {{"l1", CeilingKind::bandwidth, 1000e9, "B/s", "", 32 << 10},
               {"l2", CeilingKind::bandwidth, 500e9, "B/s", "", 1 << 20},
               {"llc", CeilingKind::bandwidth, 200e9, "B/s", "", 32 << 20},
               {"dram", CeilingKind::bandwidth, 50e9, "B/s", "", 0},
               {"fp32_fma", CeilingKind::compute, 1e12, "FLOP/s", "", 0}};
    return c;
}

Counter model(const std::string& name, double v) { return {name, v, "", CounterSource::model}; }

TEST(PlaceOnRoofline, MemoryBoundAtDram) {
    // 1 FLOP per DRAM byte: the DRAM roof is 50 GFLOP/s; 1 GFLOP in 50 ms is 20 GFLOP/s.
    auto p =
        place_on_roofline({model("flops", 1e9), model("bytes.l2", 1e9), model("bytes.dram", 1e9)}, 0.05, machine());
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.bound, "dram");
    EXPECT_DOUBLE_EQ(p.attainable, 50e9);
    EXPECT_DOUBLE_EQ(p.flops_per_second, 20e9);
    EXPECT_DOUBLE_EQ(p.percent_of_bound, 40);
    EXPECT_DOUBLE_EQ(p.intensity, 1);
    EXPECT_DOUBLE_EQ(p.bytes_per_second, 20e9);
    ASSERT_EQ(p.levels.size(), 2u);
    EXPECT_EQ(p.levels[0].level, "dram");
    EXPECT_EQ(p.levels[1].level, "l2");
    EXPECT_DOUBLE_EQ(p.levels[1].attainable, 500e9);
    EXPECT_EQ(p.bytes_source, CounterSource::model);
}

TEST(PlaceOnRoofline, AnInnerLevelCanBound) {
    // Little DRAM traffic (intensity 100) but heavy L1 traffic (0.1): L1 bounds at 100 GFLOP/s.
    auto p =
        place_on_roofline({model("bytes.l1", 1e10), model("bytes.dram", 1e7), model("flops", 1e9)}, 0.1, machine());
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.bound, "l1");
    EXPECT_DOUBLE_EQ(p.attainable, 100e9);
    EXPECT_DOUBLE_EQ(p.levels[0].attainable, 1e12);  // the DRAM roof is capped by the peak
    EXPECT_DOUBLE_EQ(p.intensity, 100);              // the primary level stays DRAM
    EXPECT_EQ(p.levels.front().level, "dram");
    EXPECT_EQ(p.levels.back().level, "l1");
}

TEST(PlaceOnRoofline, ASlowerTierBehindDramIsTheOutermostLevel) {
    // kv_offload: 1 GB from a file whose 64 KiB random reads reach 2 GB/s; 1 GB of DRAM traffic.
    Ceilings c = machine();
    c.items.push_back({"tier.rand.64KiB", CeilingKind::bandwidth, 2e9, "B/s", "", 0});
    auto p =
        place_on_roofline({model("flops", 1e8), model("bytes.dram", 1e9), model("bytes.tier.rand.64KiB", 1e9)}, 1.0, c);
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.levels.front().level, "tier.rand.64KiB");
    EXPECT_EQ(p.bound, "tier.rand.64KiB");
    EXPECT_DOUBLE_EQ(p.bytes_per_second, 1e9);
    EXPECT_DOUBLE_EQ(p.percent_of_bound, 50);
}

TEST(PlaceOnRoofline, TensorCoreFlopsAreBoundedByTheTensorRoofTheRestByTheFmaRoof) {
    Ceilings c = machine();
    c.items.push_back({"bf16_tensor", CeilingKind::compute, 16e12, "FLOP/s", "", 0});
    // 1 GFLOP, 0.8 of it on tensor cores: FMA 0.2 GFLOP / 1 TFLOP/s = 0.2 ms, tensor 0.05 ms;
    // the units overlap, so 0.2 ms bounds; in 0.4 ms that is 50%.
    const std::vector<Counter> mixed{model("flops", 1e9), model("flops.bf16_tensor", 0.8e9), model("bytes.dram", 1e6)};
    auto p = place_on_roofline(mixed, 0.4e-3, c);
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.bound, "compute");
    EXPECT_NEAR(p.attainable, 5e12, 1e6);
    EXPECT_NEAR(p.percent_of_bound, 50, 1e-6);
    // All on tensor cores: 1 GFLOP / 16 TFLOP/s = 62.5 us of 0.4 ms, where the FMA roof alone
    // would have claimed 1 ms, over 100%.
    const std::vector<Counter> tensor{model("flops", 1e9), model("flops.bf16_tensor", 1e9), model("bytes.dram", 1e6)};
    p = place_on_roofline(tensor, 0.4e-3, c);
    EXPECT_EQ(p.bound, "compute");
    EXPECT_NEAR(p.percent_of_bound, 15.625, 1e-6);
    // Without a tensor roof, tensor FLOPs bound nothing: DRAM's 20 us bounds (5%).
    p = place_on_roofline(tensor, 0.4e-3, machine());
    EXPECT_EQ(p.bound, "dram");
    EXPECT_NEAR(p.percent_of_bound, 5, 1e-6);
    // Without the counter a tensor roof changes nothing: FLOPs are FMA FLOPs.
    p = place_on_roofline({model("flops", 1e9), model("bytes.dram", 1e6)}, 2e-3, c);
    EXPECT_NEAR(p.percent_of_bound, 50, 1e-6);
}

TEST(PlaceOnRoofline, F16RunsAtTheBf16RateAndTf32OnItsOwnRoof) {
    Ceilings c = machine();
    c.items.push_back({"bf16_tensor", CeilingKind::compute, 16e12, "FLOP/s", "", 0});
    c.items.push_back({"tf32_tensor", CeilingKind::compute, 8e12, "FLOP/s", "", 0});
    // 0.4 GFLOP f16 + 0.4 bf16 at 16 TFLOP/s (50 us) then 0.2 tf32 at 8 (25 us): the tensor
    // cores take 75 us; in 0.3 ms that is 25%. Emulated counts come before the model's.
    const std::vector<Counter> mixed{model("flops", 1e9),
                                     model("flops.bf16_tensor", 1e9),
                                     {"flops.bf16_tensor", 0.4e9, "FLOP", CounterSource::emu},
                                     model("flops.f16_tensor", 0.4e9),
                                     model("flops.tf32_tensor", 0.2e9),
                                     model("bytes.dram", 1e6)};
    auto p = place_on_roofline(mixed, 0.3e-3, c);
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.bound, "compute");
    EXPECT_NEAR(p.percent_of_bound, 25, 1e-6);
    // Without a tf32 roof its FLOPs bound nothing, and stay off the FMA roof: 50 us.
    c.items.pop_back();
    p = place_on_roofline(mixed, 0.3e-3, c);
    EXPECT_NEAR(p.percent_of_bound, 50.0 / 3, 1e-6);
}

TEST(PlaceOnRoofline, ComputeBound) {
    auto p =
        place_on_roofline({model("flops", 1e12), model("bytes.dram", 1e9), model("bytes.llc", 2e9)}, 2.0, machine());
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.bound, "compute");
    EXPECT_DOUBLE_EQ(p.attainable, 1e12);
    EXPECT_DOUBLE_EQ(p.percent_of_bound, 50);
    ASSERT_EQ(p.levels.size(), 2u);
    EXPECT_EQ(p.levels[1].level, "llc");
    EXPECT_DOUBLE_EQ(p.levels[1].intensity, 500);
}

TEST(PlaceOnRoofline, MeasuredCountersWinOverModel) {
    std::vector<Counter> cs{model("flops", 1e9),
                            model("bytes.dram", 1e9),
                            {"bytes.dram", 4e9, "B", CounterSource::emu},
                            {"flops", 2e9, "FLOP", CounterSource::perf}};
    auto p = place_on_roofline(cs, 1.0, machine());
    ASSERT_TRUE(p.valid);
    EXPECT_DOUBLE_EQ(p.flops, 2e9);
    EXPECT_DOUBLE_EQ(p.levels[0].bytes, 4e9);
    EXPECT_EQ(p.levels[0].source, CounterSource::emu);
    EXPECT_EQ(p.bytes_source, CounterSource::emu);
    EXPECT_DOUBLE_EQ(p.intensity, 0.5);
}

TEST(PlaceOnRoofline, PerfLoadMissesStayBesideTheModel) {
    // A PMU's last-level-cache load misses count loads only: a lower bound, never the point.
    const std::vector<Counter> cs{
        model("flops", 1e9), model("bytes.dram", 1e9), {"llc.load_misses", 1e6, "loads", CounterSource::perf}};
    const auto p = place_on_roofline(cs, 1.0, machine());
    ASSERT_EQ(p.levels.size(), 1u);
    EXPECT_EQ(p.levels[0].source, CounterSource::model);
    ASSERT_EQ(p.beside.size(), 1u);
    EXPECT_EQ(p.beside[0].source, CounterSource::perf);
    EXPECT_DOUBLE_EQ(p.beside[0].bytes, 64e6);
    // Where the model has no bytes, perf's are the only figure and place the point.
    const auto only = place_on_roofline({model("flops", 1e9), {"llc.load_misses", 1e6, "loads", CounterSource::perf}},
                                        1.0, machine());
    ASSERT_EQ(only.levels.size(), 1u);
    EXPECT_EQ(only.levels[0].source, CounterSource::perf);
}

TEST(PlaceOnRoofline, InvalidWithoutTimeBytesOrABandwidthRoof) {
    const std::vector<Counter> ok{model("flops", 1e9), model("bytes.dram", 1e9)};
    EXPECT_TRUE(place_on_roofline(ok, 1.0, machine()).valid);

    EXPECT_FALSE(place_on_roofline({model("flops", 1e9)}, 1.0, machine()).valid);
    // Bytes only at a level the run has no ceiling for.
    EXPECT_FALSE(place_on_roofline({model("flops", 1e9), model("bytes.l3", 1e9)}, 1.0, machine()).valid);
    EXPECT_FALSE(place_on_roofline(ok, 1.0, Ceilings{}).valid);
    EXPECT_FALSE(place_on_roofline(ok, 0.0, machine()).valid);
    EXPECT_FALSE(place_on_roofline(ok, -1.0, machine()).valid);
    const auto unroofed = place_on_roofline(ok, 0.5, Ceilings{});
    EXPECT_TRUE(unroofed.bound.empty());
    EXPECT_DOUBLE_EQ(unroofed.intensity, 1);  // what can be computed still is
    EXPECT_DOUBLE_EQ(unroofed.flops_per_second, 2e9);
    EXPECT_DOUBLE_EQ(unroofed.bytes_per_second, 2e9);

    // Without a compute ceiling the bandwidth roofs still bound.
    Ceilings no_peak = machine();
    no_peak.items.pop_back();
    const auto p = place_on_roofline(ok, 0.5, no_peak);
    EXPECT_TRUE(p.valid);
    EXPECT_EQ(p.bound, "dram");
    EXPECT_DOUBLE_EQ(p.percent_of_bound, 4);  // 2 GB/s of 50
}

TEST(PlaceOnRoofline, WithoutFlopsTheBoundIsTheSlowestLevel) {
    // A copy: 1 GB through DRAM (50 GB/s: 20 ms) and 2 GB through L2 (500 GB/s: 4 ms) in 25 ms.
    const auto p =
        place_on_roofline({model("flops", 0), model("bytes.dram", 1e9), model("bytes.l2", 2e9)}, 0.025, machine());
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.bound, "dram");
    EXPECT_DOUBLE_EQ(p.percent_of_bound, 80);
    EXPECT_DOUBLE_EQ(p.bytes_per_second, 40e9);
    EXPECT_EQ(p.intensity, 0);
    EXPECT_EQ(p.attainable, 0);
    EXPECT_EQ(p.bounding_level()->level, "dram");
}

TEST(PlaceOnRoofline, CuptiNamedCountersGiveTheGpuLevelsAndTheModelStaysBeside) {
    // What cuda-emu stores (and CUPTI on a GPU): DRAM read + write, L2 bytes, global L1 sectors.
    std::vector<Counter> cs{model("flops", 1e9),
                            model("bytes.dram", 3e8),
                            model("bytes.llc", 5e8),
                            model("bytes.l2", 6e8),
                            model("bytes.l1", 6e8),
                            {"dram__bytes_read.sum", 1e8, "B", CounterSource::emu},
                            {"dram__bytes_write.sum", 5e7, "B", CounterSource::emu},
                            {"lts__t_bytes.sum", 4e8, "B", CounterSource::emu},
                            {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1e7, "sectors", CounterSource::emu},
                            {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2e6, "sectors", CounterSource::emu},
                            {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", 0, "sectors", CounterSource::emu}};
    const auto p = place_on_roofline(cs, 0.01, machine());
    ASSERT_TRUE(p.valid);
    ASSERT_EQ(p.levels.size(), 4u);
    EXPECT_EQ(p.levels[0].level, "dram");
    EXPECT_EQ(p.levels[0].source, CounterSource::emu);
    EXPECT_DOUBLE_EQ(p.levels[0].bytes, 1.5e8);
    EXPECT_EQ(p.levels[0].counters, "dram__bytes_read.sum + dram__bytes_write.sum");
    EXPECT_EQ(p.levels[1].level, "llc");  // no emu counter there: the model's
    EXPECT_EQ(p.levels[1].source, CounterSource::model);
    EXPECT_EQ(p.levels[2].level, "l2");
    EXPECT_EQ(p.levels[2].source, CounterSource::emu);
    EXPECT_DOUBLE_EQ(p.levels[2].bytes, 4e8);
    EXPECT_EQ(p.levels[3].level, "l1");
    EXPECT_EQ(p.levels[3].source, CounterSource::emu);
    EXPECT_DOUBLE_EQ(p.levels[3].bytes, 12e6 * 32);
    // The model's points where emu's are preferred, beside them.
    ASSERT_EQ(p.beside.size(), 3u);
    EXPECT_EQ(p.beside[0].level, "dram");
    EXPECT_DOUBLE_EQ(p.beside[0].bytes, 3e8);
    EXPECT_EQ(p.beside[0].source, CounterSource::model);
    EXPECT_EQ(p.beside[2].level, "l1");
    EXPECT_EQ(p.bytes_source, CounterSource::emu);
}

TEST(RoofPolyline, RidgeAtPeakOverBandwidth) {
    auto r = roof_polyline(100e9, 1e12, 0.01, 1000);
    EXPECT_DOUBLE_EQ(r.x0, 0.01);
    EXPECT_DOUBLE_EQ(r.y0, 1e9);
    EXPECT_DOUBLE_EQ(r.ridge_x, 10);
    EXPECT_DOUBLE_EQ(r.ridge_y, 1e12);
    EXPECT_DOUBLE_EQ(r.x1, 1000);
    EXPECT_DOUBLE_EQ(r.y1, 1e12);
    // Straight in log-log: slope 1 up to the ridge (y / x is the bandwidth), flat after it.
    EXPECT_NEAR((std::log(r.ridge_y) - std::log(r.y0)) / (std::log(r.ridge_x) - std::log(r.x0)), 1.0, 1e-12);
    EXPECT_DOUBLE_EQ(r.y1, r.ridge_y);
}

TEST(RoofPolyline, RidgeOutsideTheRangeIsClamped) {
    auto flat = roof_polyline(100e9, 1e12, 100, 1000);  // ridge at 10, left of the range
    EXPECT_DOUBLE_EQ(flat.ridge_x, 100);
    EXPECT_DOUBLE_EQ(flat.y0, 1e12);
    EXPECT_DOUBLE_EQ(flat.ridge_y, 1e12);
    auto slope = roof_polyline(100e9, 1e12, 0.01, 1);  // ridge right of the range
    EXPECT_DOUBLE_EQ(slope.ridge_x, 1);
    EXPECT_DOUBLE_EQ(slope.ridge_y, 100e9);
    EXPECT_DOUBLE_EQ(slope.y1, 100e9);
}

TEST(RoofPolyline, RejectsDegenerateInput) {
    EXPECT_THROW(roof_polyline(0, 1e12, 0.01, 100), std::invalid_argument);
    EXPECT_THROW(roof_polyline(1e9, -1, 0.01, 100), std::invalid_argument);
    EXPECT_THROW(roof_polyline(1e9, 1e12, 0, 100), std::invalid_argument);
    EXPECT_THROW(roof_polyline(1e9, 1e12, 10, 10), std::invalid_argument);
}

}  // namespace
}  // namespace memwall
