#include "metrics/device_specs.hpp"

#include <gtest/gtest.h>

namespace memwall {
namespace {

TEST(DeviceSpecs, FoundByNameOrAliasIgnoringCaseAndSeparators) {
    const DeviceSpec* h100 = find_device_spec("H100 SXM");
    ASSERT_NE(h100, nullptr);
    EXPECT_EQ(find_device_spec("h100-sxm"), h100);
    EXPECT_EQ(find_device_spec("H100_SXM5"), h100);
    EXPECT_EQ(find_device_spec("a100")->name, "A100 SXM4 80GB");
    EXPECT_EQ(find_device_spec("nope"), nullptr);
    EXPECT_EQ(device_specs().front().name, "H100 SXM");  // the default
    EXPECT_NE(device_spec_names().find("A100 SXM4 40GB"), std::string::npos);
    for (const DeviceSpec& d : device_specs()) {
        EXPECT_GT(d.fp32_flops, 0) << d.name;
        EXPECT_GT(d.dram_bandwidth, 0) << d.name;
        EXPECT_FALSE(d.source.empty()) << d.name;
    }
}

TEST(DeviceSpecs, TheRooflineIsTheSlowestResource) {
    const DeviceSpec& a100 = *find_device_spec("A100");
    // 19.5 TFLOP/s, 2039 GB/s, L2 5120 B/clk at 1410 MHz.
    const RooflinePrediction compute = predict_roofline(a100, 19.5e12, 1e9, 1e9);
    EXPECT_DOUBLE_EQ(compute.seconds, 1.0);
    EXPECT_EQ(compute.bound, "fp32");
    const RooflinePrediction dram = predict_roofline(a100, 1e9, 2039e9 * 2, 1e9);
    EXPECT_DOUBLE_EQ(dram.seconds, 2.0);
    EXPECT_EQ(dram.bound, "dram");
    const RooflinePrediction l2 = predict_roofline(a100, 1e9, 1e9, 5120.0 * 1410e6 * 3);
    EXPECT_DOUBLE_EQ(l2.seconds, 3.0);
    EXPECT_EQ(l2.bound, "l2");
    // No published L2 bandwidth for H100: L2 bytes bound nothing there.
    const DeviceSpec& h100 = *find_device_spec("H100 SXM");
    EXPECT_FALSE(h100.l2_bandwidth);
    EXPECT_EQ(predict_roofline(h100, 67e12, 0, 1e15).bound, "fp32");
}

TEST(DeviceSpecs, PredictsFromEmuCountersAndTheModelsFlops) {
    const DeviceSpec& h100 = *find_device_spec("H100 SXM");
    std::vector<Counter> cs{
        {"flops", 67e9, "FLOP", CounterSource::model},
        {"dram__bytes_read.sum", 3.35e9 * 2, "B", CounterSource::emu},
        {"dram__bytes_write.sum", 3.35e9, "B", CounterSource::emu},
        {"lts__t_bytes.sum", 1e12, "B", CounterSource::emu},
    };
    const auto p = predict_roofline(h100, cs);
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->seconds, 3e-3);  // DRAM read + write over 3.35 TB/s
    EXPECT_EQ(p->bound, "dram");
    cs.pop_back();
    EXPECT_FALSE(predict_roofline(h100, cs));  // no L2 counter: not emu counters, no prediction
}

}  // namespace
}  // namespace memwall
