#include "metrics/ceilings.hpp"

#include <gtest/gtest.h>

namespace memwall {
namespace {

TEST(CeilingSet, FindPeakAndKindNames) {
    Ceilings c;
    EXPECT_TRUE(c.empty());
    EXPECT_EQ(c.compute_peak("fp32_fma"), 0);
    c.items = {{"dram", CeilingKind::bandwidth, 20e9, "B/s", "", 0},
               {"fp32_fma", CeilingKind::compute, 1e12, "FLOP/s", "", 0},
               {"fp32_add", CeilingKind::compute, 5e11, "FLOP/s", "", 0}};
    ASSERT_NE(c.find("dram"), nullptr);
    EXPECT_EQ(c.find("dram")->value, 20e9);
    EXPECT_EQ(c.find("l2"), nullptr);
    EXPECT_EQ(c.compute_peak("fp32_fma"), 1e12);
    EXPECT_EQ(c.compute_peak("dram"), 0);  // a bandwidth, not a compute peak
    for (auto k : {CeilingKind::bandwidth, CeilingKind::compute}) EXPECT_EQ(ceiling_kind_from(to_string(k)), k);
    EXPECT_FALSE(ceiling_kind_from("roof"));
}

}  // namespace
}  // namespace memwall
