#include "cuda_emu/sector_cache.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace memwall::emu {
namespace {

// One set of two 128-byte lines: sectors 0-3 are line 0, 4-7 line 1, 8-11 line 2.
SectorCache two_lines() { return SectorCache({256, 128, 2}); }

bool read(SectorCache& c, std::uint64_t sector) { return c.read(32 * sector); }
void write(SectorCache& c, std::uint64_t sector) { c.write(32 * sector); }

TEST(SectorCache, FillsSectorBySector) {
    SectorCache c = two_lines();
    EXPECT_FALSE(read(c, 0));
    EXPECT_TRUE(read(c, 0));
    EXPECT_FALSE(read(c, 1));  // same line, another sector
    EXPECT_TRUE(read(c, 1));
}

TEST(SectorCache, EvictsTheLeastRecentlyUsedLine) {
    SectorCache c = two_lines();
    read(c, 0);
    read(c, 4);
    read(c, 0);                // line 0 becomes the most recent
    EXPECT_FALSE(read(c, 8));  // evicts line 1
    EXPECT_TRUE(read(c, 0));
    EXPECT_FALSE(read(c, 4));
}

TEST(SectorCache, WritesAllocateWithoutFetchingAndWriteBackOnEviction) {
    SectorCache c = two_lines();
    write(c, 1);
    write(c, 2);
    write(c, 2);
    EXPECT_TRUE(read(c, 1));
    EXPECT_EQ(c.dirty_sectors(), 2u);
    read(c, 4);
    read(c, 8);  // evicts line 0 and its two dirty sectors
    EXPECT_EQ(c.written_back(), 2u);
    EXPECT_EQ(c.dirty_sectors(), 0u);
}

TEST(SectorCache, ClearEmptiesAndZeroes) {
    SectorCache c = two_lines();
    write(c, 0);
    read(c, 4);
    read(c, 8);
    c.clear();
    EXPECT_EQ(c.written_back(), 0u);
    EXPECT_EQ(c.dirty_sectors(), 0u);
    EXPECT_FALSE(read(c, 8));
}

TEST(SectorCache, SetsAreChosenByLine) {
    SectorCache c({512, 128, 2});  // two sets: even lines and odd lines
    read(c, 0);                    // line 0
    read(c, 8);                    // line 2
    read(c, 4);                    // line 1, the other set
    EXPECT_TRUE(read(c, 0));
    EXPECT_TRUE(read(c, 8));
}

TEST(SectorCache, LargerSectorsCoverSeveralAddresses) {
    SectorCache c({256, 128, 2, 64});
    EXPECT_FALSE(c.read(0));
    EXPECT_TRUE(c.read(63));
    EXPECT_FALSE(c.read(64));
    c.write(130);
    EXPECT_TRUE(c.read(128));
}

TEST(SectorCache, RejectsImpossibleGeometries) {
    EXPECT_FALSE(SectorCache({0, 128, 16}).enabled());
    EXPECT_THROW(SectorCache({4096, 100, 4}), std::invalid_argument);
    EXPECT_THROW(SectorCache({4096, 512, 4}), std::invalid_argument);
    EXPECT_THROW(SectorCache({1000, 128, 4}), std::invalid_argument);
    EXPECT_THROW(SectorCache({4096, 128, 0}), std::invalid_argument);
    EXPECT_THROW(SectorCache({4096, 128, 4, 16}), std::invalid_argument);
    EXPECT_THROW(SectorCache({4096, 128, 4, 48}), std::invalid_argument);
    EXPECT_THROW(SectorCache({8192, 512, 4, 32}), std::invalid_argument);  // 16 sectors a line
}

}  // namespace
}  // namespace memwall::emu
