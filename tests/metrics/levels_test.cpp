#include "metrics/levels.hpp"

#include <gtest/gtest.h>

namespace memwall {
namespace {

Counter c(const std::string& name, double v, CounterSource s) { return {name, v, "", s}; }

const LevelBytes* find(const std::vector<LevelBytes>& ls, const std::string& level, CounterSource s) {
    for (const LevelBytes& l : ls)
        if (l.level == level && l.source == s) return &l;
    return nullptr;
}

TEST(LevelTable, ModelBytesPerLevelAndNotTheMinimum) {
    const auto ls =
        bytes_by_level({c("flops", 1, CounterSource::model), c("bytes.min", 10, CounterSource::model),
                        c("bytes.dram", 20, CounterSource::model), c("bytes.l1", 30, CounterSource::model)});
    ASSERT_EQ(ls.size(), 2u);
    EXPECT_EQ(find(ls, "dram", CounterSource::model)->bytes, 20);
    EXPECT_EQ(find(ls, "l1", CounterSource::model)->counters, "bytes.l1");
}

TEST(LevelTable, CuptiNamesBytesBeforeSectorsAndAtomicsOptional) {
    const auto src = CounterSource::cupti;
    // Both DRAM forms present: the bytes win; L2 from sectors read and written only (no atomics).
    const auto ls = bytes_by_level({c("dram__sectors_read.sum", 100, src), c("dram__sectors_write.sum", 10, src),
                                    c("dram__bytes_read.sum", 3200, src), c("dram__bytes_write.sum", 320, src),
                                    c("lts__t_sectors_op_read.sum", 7, src), c("lts__t_sectors_op_write.sum", 3, src)});
    ASSERT_EQ(ls.size(), 2u);
    EXPECT_EQ(find(ls, "dram", src)->bytes, 3520);
    EXPECT_EQ(find(ls, "l2", src)->bytes, 320);
    EXPECT_EQ(find(ls, "l2", src)->counters, "(lts__t_sectors_op_read.sum + lts__t_sectors_op_write.sum) x 32");
}

TEST(LevelTable, EachSourceKeepsItsOwnLevelsAndPerfGivesLowerBounds) {
    const auto ls =
        bytes_by_level({c("llc.load_misses", 10, CounterSource::perf), c("l1d.load_misses", 100, CounterSource::perf),
                        c("lts__t_bytes.sum", 640, CounterSource::emu), c("bytes.l2", 500, CounterSource::model),
                        c("cycles", 5, CounterSource::perf), c("sm__unrelated.sum", 1, CounterSource::emu)});
    ASSERT_EQ(ls.size(), 4u);
    EXPECT_EQ(find(ls, "dram", CounterSource::perf)->bytes, 640);
    EXPECT_EQ(find(ls, "l2", CounterSource::perf)->bytes, 6400);
    EXPECT_EQ(find(ls, "l2", CounterSource::emu)->bytes, 640);
    EXPECT_EQ(find(ls, "l2", CounterSource::model)->bytes, 500);
}

TEST(LevelTable, OuterLevelsRankFirst) {
    EXPECT_LT(outer_rank("tier.rand.64KiB"), outer_rank("dram"));  // a file behind DRAM (kv_offload)
    EXPECT_LT(outer_rank("dram"), outer_rank("llc"));
    EXPECT_LT(outer_rank("llc"), outer_rank("l3"));
    EXPECT_LT(outer_rank("l3"), outer_rank("l2"));
    EXPECT_LT(outer_rank("l2"), outer_rank("l1"));
    EXPECT_LT(outer_rank("l1"), outer_rank("shared"));
}

}  // namespace
}  // namespace memwall
