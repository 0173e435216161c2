// The cuda backend's device description: its one-line summary everywhere, the device itself
// only where the cuda backend is available (the test skips itself elsewhere).
#include "gpu/device_properties.hpp"

#include <gtest/gtest.h>

#include "core/backend.hpp"

namespace memwall::gpu {
namespace {

TEST(DeviceProperties, SummaryNamesTheFiguresThatMatter) {
    DeviceProperties d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.compute_capability = 90;
    d.sms = 132;
    d.sm_clock_hz = 1.98e9;
    d.l2_bytes = 50LL << 20;
    d.memory_bandwidth = 3.352e12;
    EXPECT_EQ(d.summary(), "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 1.98 GHz, L2 50 MiB, 3352 GB/s)");
}

TEST(DeviceProperties, QueriedOnlyWhereTheCudaBackendIsAvailable) {
    const BackendStatus st = probe_backend(Backend::cuda);
    const auto props = cuda_device_properties(0);
    if (!st.available) {
        EXPECT_FALSE(props.has_value()) << st.reason;
        GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    }
    ASSERT_TRUE(props.has_value());
    EXPECT_FALSE(props->name.empty());
    EXPECT_GT(props->sms, 0);
    EXPECT_GT(props->memory_bandwidth, 0.0);
    EXPECT_GT(props->l2_bytes, 0);
}

}  // namespace
}  // namespace memwall::gpu
