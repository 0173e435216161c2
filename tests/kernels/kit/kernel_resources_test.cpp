// The static figures of tensor-core kernels (kernel_resources.hpp): a kernel found by a part of
// its mangled name, sm_90's occupancy rules, and the summary line memwall list shows.
#include <gtest/gtest.h>

#include "kernels/kit/kernel_resources.hpp"

namespace memwall::kit {
namespace {

// Registers go to warps in units of 256 (8 a thread), and each block also holds 1 KB of shared
// memory; warps and blocks per SM are capped at 64 and 32.
TEST(KernelResources, Sm90Occupancy) {
    EXPECT_EQ(sm90_blocks_per_sm(136, 128, 40 * 1024), 3);  // registers: 15 warps of 4352
    EXPECT_EQ(sm90_blocks_per_sm(254, 128, 80 * 1024), 2);  // registers (8 warps) and shared memory
    EXPECT_EQ(sm90_blocks_per_sm(242, 256, 96 * 1024), 1);
    EXPECT_EQ(sm90_blocks_per_sm(32, 128, 100 * 1024), 2);  // shared memory: 2 x 101 KB of 228
    EXPECT_EQ(sm90_blocks_per_sm(16, 64, 0), 32);           // blocks
    EXPECT_EQ(sm90_blocks_per_sm(16, 1024, 0), 2);          // warps
}

TEST(KernelResources, FindsAKernelByPartOfItsNameAndSummarisesIt) {
    const KernelResourceTable table{
        90, "test", {{"_Z6kernelILi64EEvv", 122, 0, 0, 1024, 32}, {"_Z6kernelILi128EEvv", 232, 8, 16, 0, 64}}};
    const KernelResources* k = find_kernel(table, "kernelILi128EE");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->registers, 232);
    EXPECT_EQ(find_kernel(table, "kernelILi256EE"), nullptr);
    // 122 registers: 4096 per warp (3904 rounded up), 16 warps in 65536, 2 blocks of 8; shared
    // memory, 48 KiB + 1 KiB static + 1 KiB reserved per block, would allow 4.
    EXPECT_EQ(sm90_summary(*find_kernel(table, "kernelILi64EE"), 256, 48 * 1024),
              "122 registers, 32 HMMA, 49 KiB shared, 2 blocks/SM (16 warps), 0 spill bytes");
    EXPECT_EQ(sm90_summary(*k, 256, 72 * 1024),
              "232 registers, 64 HMMA, 72 KiB shared, 1 blocks/SM (8 warps), 8 spill bytes");
}

}  // namespace
}  // namespace memwall::kit
