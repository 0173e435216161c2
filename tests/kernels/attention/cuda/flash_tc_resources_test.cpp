// flash_tc's static evidence, read from this build's nvcc at build time (no GPU needed): on sm_90
// every compiled tile's kernel spills nothing and holds its HMMA instructions (counted in the SASS
// by memwall_sass_scan); and the occupancy that follows (its rules: tests/kernels/kit).
#include <gtest/gtest.h>

#include <iterator>

#include "kernels/attention/cuda/resources.hpp"

namespace memwall::attention_cuda {
namespace {

TEST(FlashTcResources, EveryTileOnSm90SpillsNothingAndRunsOnTensorCores) {
    const KernelResourceTable& table = flash_tc_sm90_resources();
    if (table.kernels.empty()) GTEST_SKIP() << table.evidence;
    EXPECT_EQ(table.arch, 90);
    EXPECT_EQ(table.evidence.substr(0, 9), "SASS HMMA");
    EXPECT_EQ(table.kernels.size(), std::size(kFlashTcTiles));
    for (const FlashTcTile& t : kFlashTcTiles) {
        const KernelResources* k = flash_tc_resources(table, t);
        ASSERT_NE(k, nullptr) << "d " << t.head_dim << " Br " << t.br << " Bc " << t.bc;
        SCOPED_TRACE(std::string(k->kernel));
        EXPECT_EQ(k->spill_bytes, 0);
        EXPECT_EQ(k->stack_bytes, 0);
        EXPECT_LE(k->registers, 255);
        // Every m16n8k16 product of a key tile, QK^T's and PV's, is an instruction of its own:
        // the loops over fragments are unrolled, so the fragments stay in registers.
        EXPECT_GE(k->matrix_instructions, 2 * t.head_dim * t.bc / 128) << table.evidence;
        const std::size_t shared = flash_tc_shared_bytes(t.br, t.bc, t.head_dim, t.stages);
        EXPECT_LE(shared + static_cast<std::size_t>(k->static_shared_bytes), kMaxSharedBytes);
        EXPECT_GE(sm90_blocks_per_sm(k->registers, 32 * t.warps, shared), 1);
    }
    EXPECT_NE(flash_tc_resource_summary().find("0 spill bytes"), std::string::npos);
    EXPECT_NE(flash_tc_resource_summary().find(" HMMA, "), std::string::npos);
}

}  // namespace
}  // namespace memwall::attention_cuda
