// The CUDA stream kernel under cuda-emu: its traffic and its launch rules (cuda/).
#include <gtest/gtest.h>

#include <vector>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "cuda_emu/traffic.hpp"
#include "kernels/stream/cuda/device_case.hpp"
#include "kernels/stream/register.hpp"
#include "kernels/stream/stream.hpp"
#include "tests/kernels/stream/points.hpp"

namespace memwall {
namespace {

using stream_test::counter;
using stream_test::point;

TEST(StreamCudaEmu, TriadMovesExactlyThreeArrays) {
    const std::int64_t n = 5000;
    const StreamWorkload w(StreamProblem::from(point("triad", n)), 1);
    auto device = stream_cuda::cuda_emu::make_device_case({StreamOp::triad, n, kStreamScalar}, 128, w.x(), w.y());
    device->poison();
    emu::TrafficScope scope;
    device->run();
    std::vector<float> z(static_cast<std::size_t>(n));
    device->download(z.data());
    EXPECT_TRUE(w.check(z.data()).ok);
    const auto cs = emu::traffic_counters(scope.stats());
    EXPECT_EQ(counter(cs, "emu.global_load_bytes"), 2 * 4 * n);
    EXPECT_EQ(counter(cs, "emu.global_store_bytes"), 4 * n);
    // Cold: every sector read once from DRAM, and z written back.
    EXPECT_EQ(counter(cs, "dram__bytes_read.sum"), 2 * 4 * n);
    EXPECT_EQ(counter(cs, "dram__bytes_write.sum"), 4 * n);
}

TEST(StreamCudaEmu, RulesOfTheLaunchAreUsageErrors) {
    Catalogue c;
    register_stream(c);
    const Params p = point("copy", 100);
    const auto w = c.family("stream").make_workload(p, 1);
    Params config = p;
    config.set("threads", std::int64_t{100});
    EXPECT_THROW(c.variant("stream", "grid_stride", Backend::cuda_emu).prepare(*w, config), UsageError);
}

}  // namespace
}  // namespace memwall
