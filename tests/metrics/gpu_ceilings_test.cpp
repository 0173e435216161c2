// A CUDA device's theoretical ceilings from its properties, and each backend's own roofs.
#include "metrics/gpu_ceilings.hpp"

#include <gtest/gtest.h>

#include "metrics/roofline.hpp"

namespace memwall {
namespace {

// As an H100 SXM reports itself (recorded on one, 2026-11-27).
GpuFigures h100() { return {"NVIDIA H100 80GB HBM3", 90, 132, 1.98e9, 3352.32e9}; }

TEST(GpuCeilings, TheoreticalPeaksOfAnH100) {
    const Ceilings c{theoretical_gpu_ceilings(h100())};
    ASSERT_EQ(c.items.size(), 4u);  // no published L2 bandwidth for H100
    const Ceiling* dram = c.find("cuda:dram");
    ASSERT_NE(dram, nullptr);
    EXPECT_EQ(dram->kind, CeilingKind::bandwidth);
    EXPECT_DOUBLE_EQ(dram->value, 3352.32e9);
    EXPECT_NE(dram->method.find("not measured"), std::string::npos);
    const Ceiling* fma = c.find("cuda:fp32_fma");
    ASSERT_NE(fma, nullptr);
    EXPECT_EQ(fma->kind, CeilingKind::compute);
    EXPECT_NEAR(fma->value, 132 * 128 * 2 * 1.98e9, 1e3);  // 66.9 TFLOP/s
    EXPECT_NE(fma->method.find("132 SMs x 128 FP32 lanes x 2 FLOP x 1.980 GHz"), std::string::npos) << fma->method;
    const Ceiling* tensor = c.find("cuda:bf16_tensor");
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(tensor->kind, CeilingKind::compute);
    EXPECT_NEAR(tensor->value, 132 * 4096 * 1.98e9, 1e3);  // 1070 TFLOP/s; the datasheet's 989 at 1.83 GHz
    EXPECT_NE(tensor->method.find("dense bf16 tensor FLOP"), std::string::npos) << tensor->method;
    const Ceiling* tf32 = c.find("cuda:tf32_tensor");
    ASSERT_NE(tf32, nullptr);
    EXPECT_NEAR(tf32->value, 132 * 2048 * 1.98e9, 1e3);  // the datasheet's 494.7 at 1.83 GHz
    EXPECT_NE(tf32->method.find("dense tf32 tensor FLOP"), std::string::npos) << tf32->method;
    EXPECT_TRUE(c.reliable());
}

TEST(GpuCeilings, AnA100GetsItsDatasheetL2AndHalfTheLanes) {
    const Ceilings c{theoretical_gpu_ceilings({"NVIDIA A100-SXM4-80GB", 80, 108, 1.41e9, 2039e9})};
    const Ceiling* l2 = c.find("cuda:l2");
    ASSERT_NE(l2, nullptr);
    EXPECT_NEAR(l2->value, 5120.0 * 1410e6, 1e3);
    EXPECT_NE(l2->method.find("A100 SXM4 80GB datasheet"), std::string::npos) << l2->method;
    ASSERT_NE(c.find("cuda:fp32_fma"), nullptr);
    EXPECT_NEAR(c.find("cuda:fp32_fma")->value, 19.49e12, 0.01e12);  // the datasheet's 19.5 TFLOP/s
    ASSERT_NE(c.find("cuda:bf16_tensor"), nullptr);
    EXPECT_NEAR(c.find("cuda:bf16_tensor")->value, 311.9e12, 0.1e12);  // the datasheet's 312 TFLOP/s
    ASSERT_NE(c.find("cuda:tf32_tensor"), nullptr);
    EXPECT_NEAR(c.find("cuda:tf32_tensor")->value, 155.9e12, 0.1e12);  // the datasheet's 156 TFLOP/s
}

TEST(GpuCeilings, WhatIsNotKnownIsLeftOut) {
    EXPECT_EQ(fp32_lanes_per_sm(61), 0);
    EXPECT_EQ(bf16_tensor_flops_per_sm(75), 0);  // Turing's tensor cores take no bf16
    EXPECT_EQ(tf32_tensor_flops_per_sm(75), 0);
    EXPECT_TRUE(theoretical_gpu_ceilings({}).empty());
    const Ceilings unknown_arch{theoretical_gpu_ceilings({"Some GPU", 61, 20, 1.5e9, 400e9})};
    ASSERT_EQ(unknown_arch.items.size(), 1u);
    EXPECT_EQ(unknown_arch.items[0].name, "cuda:dram");
}

Ceilings host_and_h100() {
    Ceilings c;
    c.items = {{"l1", CeilingKind::bandwidth, 400e9, "B/s", "measured", 32e3},
               {"dram", CeilingKind::bandwidth, 20e9, "B/s", "measured"},
               {"fp32_fma", CeilingKind::compute, 200e9, "FLOP/s", "measured"}};
    for (Ceiling& x : theoretical_gpu_ceilings(h100())) c.items.push_back(std::move(x));
    c.reused_from_run = 3;
    return c;
}

TEST(GpuCeilings, EachBackendIsPlacedOnItsOwnRoofs) {
    const Ceilings all = host_and_h100();
    const Ceilings cpu = all.for_backend("cpu");
    ASSERT_EQ(cpu.items.size(), 3u);
    EXPECT_EQ(cpu.reused_from_run, 3);
    EXPECT_DOUBLE_EQ(cpu.find("dram")->value, 20e9);
    EXPECT_EQ(all.for_backend("cuda-emu").items.size(), 3u);
    const Ceilings gpu = all.for_backend("cuda");
    ASSERT_EQ(gpu.items.size(), 4u);  // dram, fp32_fma and the two tensor roofs
    EXPECT_DOUBLE_EQ(gpu.find("dram")->value, 3352.32e9);
    EXPECT_EQ(gpu.find("l1"), nullptr);

    // A triad over 2^26 floats as the H100 ran it: 805 MB in 0.306 ms is 78% of its DRAM roof,
    // where the host's roofs would put it at thousands of percent.
    const std::vector<Counter> triad{{"flops", 2.0 * (1 << 26), "FLOP", CounterSource::model},
                                     {"dram__bytes_read.sum", 5.369e8, "B", CounterSource::cupti},
                                     {"dram__bytes_write.sum", 2.620e8, "B", CounterSource::cupti}};
    const RooflinePoint on_gpu = place_on_roofline(triad, 0.306e-3, gpu);
    ASSERT_TRUE(on_gpu.valid);
    EXPECT_EQ(on_gpu.bound, "dram");
    EXPECT_NEAR(on_gpu.percent_of_bound, 77.8, 0.5);
    EXPECT_GT(place_on_roofline(triad, 0.306e-3, cpu).percent_of_bound, 1000);

    // A run without device ceilings places no cuda case on the host's roofs.
    Ceilings host_only = all.for_backend("cpu");
    EXPECT_TRUE(host_only.for_backend("cuda").empty());
    EXPECT_FALSE(place_on_roofline(triad, 0.306e-3, host_only.for_backend("cuda")).valid);
}

}  // namespace
}  // namespace memwall
