// The device's measured ceilings: where the cuda backend is unavailable, nothing is measured and
// the reason is given; on a GPU, figures ordered as its hierarchy is (L1 over L2 over DRAM) and
// within reach of its theoretical peaks (the test skips itself without a GPU).
#include "gpu/device_ceilings.hpp"

#include <gtest/gtest.h>

#include "core/backend.hpp"
#include "gpu/device_properties.hpp"

namespace memwall::gpu {
namespace {

TEST(DeviceCeilings, MeasuredOnTheDeviceOrNotAtAllWithTheReason) {
    const BackendStatus st = probe_backend(Backend::cuda);
    std::string why;
    const auto m = measure_device_ceilings(&why);
    if (!st.available) {
        EXPECT_FALSE(m.has_value());
        EXPECT_FALSE(why.empty());
        GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    }
    ASSERT_TRUE(m.has_value()) << why;
    const auto props = cuda_device_properties(0);
    ASSERT_TRUE(props.has_value());
    EXPECT_GT(m->l1, m->l2);
    EXPECT_GT(m->l2, m->dram);
    // A read-only stream reaches 60-100% of the memory's theoretical bandwidth on a current GPU.
    EXPECT_GT(m->dram, 0.5 * props->memory_bandwidth);
    EXPECT_LT(m->dram, 1.05 * props->memory_bandwidth);
    EXPECT_GT(m->dram_working_set, 2.0 * static_cast<double>(props->l2_bytes));
    EXPECT_LT(m->l2_working_set, static_cast<double>(props->l2_bytes));
    EXPECT_GT(m->fp32_fma, 0.0);
}

}  // namespace
}  // namespace memwall::gpu
