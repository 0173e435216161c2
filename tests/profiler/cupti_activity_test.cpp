// The Activity API's kernels as counters, without a GPU: names shortened from what compilers emit,
// times summed per kernel.
#include "profiler/cupti_activity.hpp"

#include <gtest/gtest.h>

#include "profiler/cupti_host.hpp"

namespace memwall::cupti {
namespace {

TEST(CuptiKernelNames, ShortNamesDropNamespacesTemplatesAndParameters) {
    // memwall::lora_cuda::fused_gemm<float, 64>(float const*, int)
    EXPECT_EQ(short_kernel_name("_ZN7memwall9lora_cuda10fused_gemmIfLi64EEEvPKfi"), "fused_gemm");
    EXPECT_EQ(short_kernel_name("_Z13stream_kernelPKfS0_Pf"), "stream_kernel");
    EXPECT_EQ(short_kernel_name("plain_c_kernel"), "plain_c_kernel");
    // memwall::(anonymous namespace)::kernel()
    EXPECT_EQ(short_kernel_name("_ZN7memwall12_GLOBAL__N_16kernelEv"), "kernel");
}

TEST(CuptiKernelCounters, SumPerKernelInFirstLaunchOrderAndCountLaunches) {
    const auto cs = kernel_counters({{"_Z4stepv", 1e-3}, {"_Z6reducev", 2e-3}, {"_Z4stepv", 3e-3}});
    ASSERT_EQ(cs.size(), 4u);
    EXPECT_EQ(cs[0].name, "kernels.count");
    EXPECT_DOUBLE_EQ(cs[0].value, 3);
    EXPECT_EQ(cs[1].name, "kernel.step.seconds");
    EXPECT_NEAR(cs[1].value, 4e-3, 1e-15);
    EXPECT_EQ(cs[1].unit, "s");
    EXPECT_EQ(cs[2].name, "kernel.step.launches");
    EXPECT_DOUBLE_EQ(cs[2].value, 2);
    EXPECT_EQ(cs[3].name, "kernel.reduce.seconds");
    for (const Counter& c : cs) EXPECT_EQ(c.source, CounterSource::cupti);
}

TEST(CuptiKernelCounters, NoKernelsIsACountOfZero) {
    const auto cs = kernel_counters({});
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_DOUBLE_EQ(cs[0].value, 0);
}

}  // namespace
}  // namespace memwall::cupti
