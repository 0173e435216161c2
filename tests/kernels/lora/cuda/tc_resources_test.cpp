// The tensor-core kernels' static evidence (the GEMM's tiles and the down-projection's ranks), read from this build's
// nvcc at build time (no GPU needed): on sm_90 every compiled tile's kernel spills nothing, holds its HMMA instructions
// (counted in the SASS by memwall_sass_scan) and fits on an SM.
#include <gtest/gtest.h>

#include <iterator>

#include "kernels/lora/cuda/tc_resources.hpp"

namespace memwall::lora_cuda {
namespace {

TEST(LoraTcResources, EveryTileOnSm90SpillsNothingAndRunsOnTensorCores) {
    const KernelResourceTable& table = gemm_tc_sm90_resources();
    if (table.kernels.empty()) GTEST_SKIP() << table.evidence;
    EXPECT_EQ(table.arch, 90);
    EXPECT_EQ(table.evidence.substr(0, 9), "SASS HMMA");
    EXPECT_EQ(table.kernels.size(), std::size(kTcTiles) + 3);  // and the down-projection for r up to 16, 32, 64
    for (const TcTile& t : kTcTiles) {
        const KernelResources* k = gemm_tc_resources(table, t);
        ASSERT_NE(k, nullptr) << "BM " << t.bm << " BN " << t.bn << " warps " << t.warps << " stages " << t.stages;
        SCOPED_TRACE(std::string(k->kernel));
        EXPECT_EQ(k->spill_bytes, 0);
        EXPECT_EQ(k->stack_bytes, 0);
        EXPECT_LE(k->registers, 255);
        // Every m16n8k16 product of a 32-deep stage is an instruction of its own (BM·BN·32 /
        // (16·8·16) per block): the loops over fragments are unrolled, so the accumulators stay
        // in registers.
        EXPECT_EQ(k->matrix_instructions, t.bm * t.bn * kTcBk / (16 * 8 * 16) / t.warps) << table.evidence;
        EXPECT_LE(gemm_tc_shared_bytes(t) + static_cast<std::size_t>(k->static_shared_bytes), 227u * 1024);
        EXPECT_GE(kit::sm90_blocks_per_sm(k->registers, 32 * t.warps, gemm_tc_shared_bytes(t)), 1);
    }
    for (int rp : {16, 32, 64}) {
        const KernelResources* k = down_tc_resources(table, rp);
        ASSERT_NE(k, nullptr) << "down-projection r <= " << rp;
        SCOPED_TRACE(std::string(k->kernel));
        EXPECT_EQ(k->spill_bytes, 0);
        EXPECT_EQ(k->stack_bytes, 0);
        // Per 32-deep stage: two 16-deep steps of rp / 8 products.
        EXPECT_EQ(k->matrix_instructions, 2 * rp / 8) << table.evidence;
    }
    EXPECT_NE(gemm_tc_resource_summary().find("0 spill bytes"), std::string::npos);
    EXPECT_NE(gemm_tc_resource_summary().find(" HMMA, "), std::string::npos);
}

}  // namespace
}  // namespace memwall::lora_cuda
