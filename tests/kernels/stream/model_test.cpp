// The stream variants' byte model (model.cpp).
#include <gtest/gtest.h>

#include "kernels/stream/stream.hpp"
#include "metrics/memory_hierarchy.hpp"
#include "tests/kernels/stream/points.hpp"

namespace memwall {
namespace {

using stream_test::counter;
using stream_test::point;

TEST(StreamModel, WriteAllocateAddsAReadOfZ) {
    MemoryHierarchy mh;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    mh.cpus = 2;
    const StreamProblem big = StreamProblem::from(point("triad", 1 << 25));
    const auto loop = stream_model(big, mh, true), nt = stream_model(big, mh, false);
    const double n = 1 << 25;
    EXPECT_EQ(counter(loop, "flops"), 2 * n);
    EXPECT_EQ(counter(loop, "bytes.min"), 12 * n);
    EXPECT_EQ(counter(loop, "bytes.dram"), 16 * n);
    EXPECT_EQ(counter(nt, "bytes.dram"), 12 * n);
    // 64 Ki elements: x and z are 512 KiB, 256 KiB per thread, which fits l2; nothing crosses the
    // llc, and every byte crosses l2 (x read, z read for the write-allocate and written).
    const auto small = stream_model(StreamProblem::from(point("copy", 1 << 16)), mh, true);
    EXPECT_EQ(counter(small, "bytes.dram"), 0);
    EXPECT_EQ(counter(small, "bytes.l2"), 12.0 * (1 << 16));
}

}  // namespace
}  // namespace memwall
