#include "metrics/memory_hierarchy.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <stdlib.h>

#include <fstream>
#include <string>

namespace memwall {
namespace {

namespace fs = std::filesystem;

// A fake sysfs cache folder in a fresh temporary directory, removed at the end of the test.
class FakeSysfs : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string tmpl = (fs::temp_directory_path() / "memwall-sysfs-XXXXXX").string();
        ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
        root_ = tmpl;
    }
    void TearDown() override { fs::remove_all(root_); }

    void add(int index, const std::string& level, const std::string& type, const std::string& size,
             const std::string& shared) {
        fs::path d = root_ / ("index" + std::to_string(index));
        fs::create_directories(d);
        std::ofstream(d / "level") << level << "\n";
        std::ofstream(d / "type") << type << "\n";
        std::ofstream(d / "size") << size << "\n";
        if (!shared.empty()) std::ofstream(d / "shared_cpu_list") << shared << "\n";
    }

    fs::path root_;
};

TEST_F(FakeSysfs, ThreeLevelsWithSmt) {
    add(0, "1", "Data", "48K", "0,8");
    add(1, "1", "Instruction", "32K", "0,8");
    add(2, "2", "Unified", "2048K", "0,8");
    add(3, "3", "Unified", "32768K", "0-7,16-23");
    MemoryHierarchy mh = read_memory_hierarchy(root_, 16);
    ASSERT_EQ(mh.caches.size(), 3u);
    EXPECT_EQ(mh.cpus, 16);
    EXPECT_EQ(mh.caches[0].name, "l1");
    EXPECT_EQ(mh.caches[0].bytes, 48u << 10);
    EXPECT_EQ(mh.caches[0].shared_by, 2);
    EXPECT_EQ(mh.caches[1].name, "l2");
    EXPECT_EQ(mh.caches[1].bytes, 2u << 20);
    EXPECT_EQ(mh.caches[2].name, "llc");
    EXPECT_EQ(mh.caches[2].bytes, 32u << 20);
    EXPECT_EQ(mh.caches[2].shared_by, 16);

    EXPECT_EQ(mh.per_thread_bytes("l1"), 24u << 10);
    EXPECT_EQ(mh.per_thread_bytes("l2"), 1u << 20);
    EXPECT_EQ(mh.per_thread_bytes("llc"), 2u << 20);
    EXPECT_EQ(mh.per_thread_bytes("l3"), 0u);

    EXPECT_EQ(mh.level_holding(1000), "l1");
    EXPECT_EQ(mh.level_holding(24 << 10), "l1");
    EXPECT_EQ(mh.level_holding((24 << 10) + 1), "l2");
    EXPECT_EQ(mh.level_holding(1.5 * (1 << 20)), "llc");
    EXPECT_EQ(mh.level_holding(3.0 * (1 << 20)), "dram");
}

TEST_F(FakeSysfs, IndexOrderDoesNotMatterAndLastLevelIsLlc) {
    add(0, "2", "Unified", "1M", "0");
    add(1, "1", "Data", "32K", "0");
    MemoryHierarchy mh = read_memory_hierarchy(root_, 1);
    ASSERT_EQ(mh.caches.size(), 2u);
    EXPECT_EQ(mh.caches[0].name, "l1");
    EXPECT_EQ(mh.caches[1].name, "llc");
    EXPECT_EQ(mh.caches[1].bytes, 1u << 20);
}

TEST_F(FakeSysfs, FourLevelsKeepTheirNumbers) {
    add(0, "1", "Data", "32K", "0");
    add(1, "2", "Unified", "256K", "0");
    add(2, "3", "Unified", "8192K", "0-3");
    add(3, "4", "Unified", "131072K", "0-3");
    MemoryHierarchy mh = read_memory_hierarchy(root_, 4);
    ASSERT_EQ(mh.caches.size(), 4u);
    EXPECT_EQ(mh.caches[2].name, "l3");
    EXPECT_EQ(mh.caches[3].name, "llc");
}

TEST_F(FakeSysfs, UnreadableEntriesAreSkipped) {
    add(0, "1", "Data", "32K", "");  // no shared_cpu_list: one CPU
    add(1, "2", "Unified", "lots", "0");
    add(2, "3", "Unified", "16384K", "0-x");   // bad list: one CPU
    fs::create_directories(root_ / "index3");  // empty
    MemoryHierarchy mh = read_memory_hierarchy(root_, 2);
    ASSERT_EQ(mh.caches.size(), 2u);
    EXPECT_EQ(mh.caches[0].name, "l1");
    EXPECT_EQ(mh.caches[0].shared_by, 1);
    EXPECT_EQ(mh.caches[1].name, "llc");
    EXPECT_EQ(mh.caches[1].bytes, 16u << 20);
    EXPECT_EQ(mh.caches[1].shared_by, 1);
}

TEST_F(FakeSysfs, FallsBackWhenNothingIsReadable) {
    add(0, "1", "Instruction", "32K", "0");
    for (const fs::path& dir : {root_, root_ / "missing"}) {
        MemoryHierarchy mh = read_memory_hierarchy(dir, 4);
        ASSERT_EQ(mh.caches.size(), 3u) << dir;
        EXPECT_EQ(mh.caches[0].bytes, 32u << 10);
        EXPECT_EQ(mh.caches[1].bytes, 1u << 20);
        EXPECT_EQ(mh.caches[2].name, "llc");
        EXPECT_EQ(mh.caches[2].bytes, 32u << 20);
        EXPECT_EQ(mh.caches[2].shared_by, 4);
        EXPECT_EQ(mh.cpus, 4);
    }
}

TEST(DetectMemoryHierarchy, DetectsThisMachine) {
    MemoryHierarchy mh = detect_memory_hierarchy();
    ASSERT_FALSE(mh.caches.empty());
    EXPECT_EQ(mh.caches.front().name, "l1");
    EXPECT_EQ(mh.cpus, omp_get_max_threads());
    for (std::size_t i = 1; i < mh.caches.size(); ++i)
        EXPECT_GT(mh.caches[i].bytes, mh.caches[i - 1].bytes) << mh.caches[i].name;
}

}  // namespace
}  // namespace memwall
