// The tier's ceilings: the level a page size is placed at, a small measurement's ceilings (names,
// positive rates, the directory in the method), and the family hook that keeps ceilings already
// measured on the same directory.
#include "kernels/kv_offload/tier_ceiling.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "kv_test_support.hpp"

using namespace memwall;

TEST(KvOffloadTierCeiling, PagesMeetTheCeilingOfTheSmallestBlockThatHoldsThem) {
    EXPECT_EQ(tier_level(512), "tier.rand.4KiB");
    EXPECT_EQ(tier_level(4096), "tier.rand.4KiB");
    EXPECT_EQ(tier_level(4097), "tier.rand.8KiB");
    EXPECT_EQ(tier_level(65536), "tier.rand.64KiB");
    EXPECT_EQ(tier_level(80 << 10), "tier.rand.128KiB");
    EXPECT_EQ(tier_level(1 << 20), "tier.rand.1MiB");
    EXPECT_EQ(tier_level(std::uint64_t{8} << 20), "tier.rand.1MiB");
    EXPECT_EQ(tier_block_sizes().size(), 9u);
}

TEST(KvOffloadTierCeiling, MeasuresEachBlockSizeAndNamesTheDirectory) {
    kv_test::ScratchDir d;
    TierOptions opt;
    opt.file_bytes = 4 << 20;
    opt.blocks = {4096, 65536};
    opt.depths = {1, 4};
    opt.seconds_per_point = 0.002;
    const TierMeasurement m = measure_tier(d.path, opt);
    EXPECT_EQ(m.points.size(), 5u);  // 2 blocks x 2 depths, and the sequential point
    ASSERT_EQ(m.ceilings.size(), 3u);
    EXPECT_EQ(m.ceilings[0].name, "tier.rand.4KiB");
    EXPECT_EQ(m.ceilings[1].name, "tier.rand.64KiB");
    EXPECT_EQ(m.ceilings[2].name, tier_sequential_level);
    for (const Ceiling& c : m.ceilings) {
        EXPECT_GT(c.value, 0) << c.name;
        EXPECT_EQ(c.kind, CeilingKind::bandwidth);
    }
    Ceilings have;
    have.items = m.ceilings;
    EXPECT_TRUE(has_tier_ceilings(have, d.path));
    EXPECT_FALSE(has_tier_ceilings(have, d.path / "elsewhere"));
    EXPECT_EQ(d.files(), 0u);  // the measurement's file is gone
}

TEST(KvOffloadTierCeiling, TheHookKeepsCeilingsOfTheSameDirectory) {
    kv_test::ScratchDir d;
    ::setenv("MEMWALL_SCRATCH", d.path.c_str(), 1);
    Ceilings have;
    have.items = {{"tier.rand.4KiB", CeilingKind::bandwidth, 1e9, "B/s",
                   "random 4KiB reads; 256 MiB file in " + d.path.string(), 0}};
    EXPECT_TRUE(kv_tier_ceilings(have, {kv_test::small_params()}).empty());
    EXPECT_TRUE(kv_tier_ceilings({}, {}).empty());  // no kv_offload cases: nothing measured
    ::unsetenv("MEMWALL_SCRATCH");
}

TEST(KvOffloadTierCeiling, ADirectoryThatRefusesIsAnEnvironmentError) {
    EXPECT_THROW(measure_tier("/nonexistent/memwall"), EnvironmentError);
}
