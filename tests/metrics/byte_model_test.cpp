#include "metrics/byte_model.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace memwall {
namespace {

MemoryHierarchy zen4() {
    MemoryHierarchy mh;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    mh.cpus = 2;
    return mh;
}

TEST(ByteModel, EachStreamCountsAtItsLevelAndEveryLevelOutside) {
    const double inf = std::numeric_limits<double>::infinity();
    // From dram, from the llc (4 MiB fits a thread's 16 MiB share), from l2 (512 KiB).
    const auto cs = level_bytes(zen4(), {{inf, 100}, {4 << 20, 1000}, {512 << 10, 10}});
    ASSERT_EQ(cs.size(), 4u);
    const char* names[] = {"bytes.dram", "bytes.llc", "bytes.l2", "bytes.l1"};
    const double values[] = {100, 1100, 1110, 1110};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(cs[i].name, names[i]);
        EXPECT_EQ(cs[i].value, values[i]) << names[i];
        EXPECT_EQ(cs[i].unit, "B");
        EXPECT_EQ(cs[i].source, CounterSource::model);
    }
    // Every level is given even when every stream comes from dram.
    const auto far = level_bytes(zen4(), {{inf, 5}, {1e12, 7}});
    ASSERT_EQ(far.size(), 4u);
    for (const Counter& c : far) EXPECT_EQ(c.value, 12) << c.name;
}

TEST(ByteModel, FlopsMinimumAndWorkspaceComeFirst) {
    const auto cs = byte_model(64, 48, 4096, zen4(), {{16 << 10, 96}});
    ASSERT_EQ(cs.size(), 7u);
    EXPECT_EQ(find_counter(cs, "flops")->value, 64);
    EXPECT_EQ(find_counter(cs, "bytes.min")->value, 48);
    EXPECT_EQ(find_counter(cs, "workspace.bytes")->value, 4096);
    EXPECT_EQ(find_counter(cs, "bytes.l1")->value, 96);  // 16 KiB fits l1: only l1 sees it
    EXPECT_EQ(find_counter(cs, "bytes.l2")->value, 0);
    EXPECT_EQ(find_counter(cs, "bytes.dram")->value, 0);
}

}  // namespace
}  // namespace memwall
