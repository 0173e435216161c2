// The tensor-core conv kernels' static evidence, read from this build's nvcc at build time (no
// GPU needed): on sm_90 every compiled kernel spills nothing and holds its HMMA instructions
// (counted in the SASS by memwall_sass_scan); and the occupancy that follows.
#include <gtest/gtest.h>

#include <iterator>

#include "kernels/conv/cuda/resources.hpp"

namespace memwall::conv_cuda {
namespace {

TEST(ConvTcResources, EveryKernelOnSm90SpillsNothingAndRunsOnTensorCores) {
    const KernelResourceTable& table = conv_tc_sm90_resources();
    if (table.kernels.empty()) GTEST_SKIP() << table.evidence;
    EXPECT_EQ(table.arch, 90);
    EXPECT_EQ(table.evidence.substr(0, 9), "SASS HMMA");
    // Both variants, both dtypes, every tile; and the window transform, which has none.
    EXPECT_EQ(table.kernels.size(), 2 * 2 * std::size(kConvTcTiles));
    for (Algorithm a : {Algorithm::implicit_gemm_tc, Algorithm::im2win_tc})
        for (Dtype d : {Dtype::bf16, Dtype::tf32})
            for (const ConvTcTile& t : kConvTcTiles) {
                const KernelResources* k = conv_tc_resources(table, a, d, t);
                ASSERT_NE(k, nullptr) << "BM " << t.bm << " BN " << t.bn << " stages " << t.stages;
                SCOPED_TRACE(std::string(k->kernel));
                EXPECT_EQ(k->spill_bytes, 0);
                EXPECT_EQ(k->stack_bytes, 0);
                EXPECT_LE(k->registers, 255);
                // Every m16n8 product of a stage (BM/16 x BN/8 tiles over 2 depth steps, on 4 warps)
                // is an instruction of its own: the fragment loops are unrolled into registers.
                EXPECT_EQ(k->matrix_instructions, t.bm / 16 * (t.bn / 8) * 2 / kConvTcWarps);
                const std::size_t shared = conv_tc_shared_bytes(t.bm, t.bn, t.stages);
                EXPECT_LE(shared + static_cast<std::size_t>(k->static_shared_bytes), kMaxSharedBytes);
                EXPECT_GE(kit::sm90_blocks_per_sm(k->registers, 32 * kConvTcWarps, shared), 2);
            }
    // memwall list's figures: one entry per dtype and tile of each variant.
    for (Algorithm a : {Algorithm::implicit_gemm_tc, Algorithm::im2win_tc}) {
        const std::string summary = conv_tc_resource_summary(a);
        std::size_t entries = 0;
        for (std::size_t i = 0; (i = summary.find(" spill bytes", i)) != std::string::npos; ++i) ++entries;
        EXPECT_EQ(entries, 2 * std::size(kConvTcTiles)) << summary;
    }
}

}  // namespace
}  // namespace memwall::conv_cuda
