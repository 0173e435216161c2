// flash_tc's shared-memory layout (swizzled_chunk in flash_tc.cuh) is free of bank conflicts for
// each of its access patterns: a shared-memory wavefront serves 128 bytes, 8 chunks of 16 bytes,
// so the 8 chunks one phase touches must sit at 8 different offsets modulo 128 bytes.
#include <gtest/gtest.h>

#include <set>

#include "kernels/attention/cuda/flash_tc.cuh"

namespace memwall::attention_cuda::cuda_emu {
namespace {

// The offsets modulo 128 bytes (in chunks) of 8 accesses are all different.
template <class F>
bool conflict_free(F chunk_of) {
    std::set<int> banks;
    for (int i = 0; i < 8; ++i) banks.insert(chunk_of(i) % 8);
    return banks.size() == 8;
}

template <int D>
void check_layout() {
    constexpr int chunks = D / 8, rows = 128;
    // ldmatrix: one 8x8 matrix is a chunk column of 8 consecutive rows from a multiple of 8.
    for (int r0 = 0; r0 < rows; r0 += 8)
        for (int c = 0; c < chunks; ++c)
            EXPECT_TRUE(conflict_free([&](int i) { return swizzled_chunk<D>(r0 + i, c); })) << r0 << " " << c;
    // cp.async, and the output's reads: 8 consecutive threads take 8 consecutive chunks of the
    // row-major tile.
    for (int x0 = 0; x0 < rows * chunks; x0 += 8)
        EXPECT_TRUE(conflict_free([&](int i) { return swizzled_chunk<D>((x0 + i) / chunks, (x0 + i) % chunks); }))
            << x0;
    // The layout is a permutation of each row's chunks, and plain row-major would conflict.
    for (int r = 0; r < rows; ++r) {
        std::set<int> row;
        for (int c = 0; c < chunks; ++c) row.insert(swizzled_chunk<D>(r, c) - r * chunks);
        EXPECT_EQ(row.size(), static_cast<std::size_t>(chunks));
        EXPECT_EQ(*row.rbegin(), chunks - 1);
    }
    EXPECT_FALSE(conflict_free([](int i) { return i * chunks; }));
}

TEST(FlashTcSwizzle, HeadDim64HasNoBankConflicts) { check_layout<64>(); }
TEST(FlashTcSwizzle, HeadDim128HasNoBankConflicts) { check_layout<128>(); }

}  // namespace
}  // namespace memwall::attention_cuda::cuda_emu
