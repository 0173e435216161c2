// flash_blocksparse's block mask: each pattern's blocks, the diagonal every pattern keeps, the
// random pattern's density and seed, the axes' validation, the scores it leaves, and the
// reference's -inf for masked blocks.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/attention/attention.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {
namespace {

using attention_cuda::block_kept;
using attention_cuda::BlockMask;
using attention_cuda::diagonal_block;
using attention_cuda::MaskKind;

Params point(std::int64_t sq, std::int64_t sk, const std::string& mask, std::int64_t block = 64,
             std::int64_t window = 1, double density = 0.25, bool causal = false) {
    return attention_test::with_mask(attention_test::problem_point(1, 2, sq, sk, 64, causal, "fp32"), mask, block,
                                     window, density);
}

BlockMask mask_of(const Params& p, std::uint32_t seed = 0) {
    BlockMask m = AttentionProblem::block_mask_from(p);
    m.seed = seed;
    return m;
}

int kept_in_row(const BlockMask& m, int qb) {
    int n = 0;
    for (int kb = 0; kb < m.k_blocks; ++kb) n += block_kept(m, qb, kb) ? 1 : 0;
    return n;
}

TEST(BlockMask, APointWithoutMaskAxesIsDense) {
    Params p;
    const Params masked = point(256, 256, "local");
    for (const auto& [name, value] : masked.values())
        if (name != "mask" && name != "block" && name != "window" && name != "density") p.set(name, value);
    EXPECT_EQ(AttentionProblem::from(p).mask.kind, MaskKind::none);
    const AttentionProblem local = AttentionProblem::from(point(256, 250, "local"));
    EXPECT_EQ(local.mask.kind, MaskKind::local);
    EXPECT_EQ(local.mask.q_blocks, 4);
    EXPECT_EQ(local.mask.k_blocks, 4);
    EXPECT_EQ(local.mask.key_offset, -6);
}

TEST(BlockMask, EveryPatternKeepsTheDiagonal) {
    for (const char* kind : {"local", "global", "random", "butterfly"})
        for (auto [sq, sk] : {std::pair<std::int64_t, std::int64_t>{1000, 1000}, {300, 1000}, {1000, 300}}) {
            const BlockMask m = mask_of(point(sq, sk, kind, 64, 0, 1.0 / 64), 9);
            for (int qb = 0; qb < m.q_blocks; ++qb) {
                const int d = diagonal_block(m, qb);
                EXPECT_TRUE(block_kept(m, qb, d)) << kind << " qb " << qb;
                // The diagonal holds the key the block's first row sees last (bottom-right).
                const std::int64_t key = std::clamp<std::int64_t>(qb * 64 + sk - sq, 0, sk - 1);
                EXPECT_EQ(d, key / 64) << kind << " qb " << qb;
            }
        }
}

TEST(BlockMask, LocalKeepsTheWindowAroundTheDiagonal) {
    const BlockMask m = mask_of(point(1024, 1024, "local", 64, 2));
    for (int qb = 0; qb < m.q_blocks; ++qb)
        for (int kb = 0; kb < m.k_blocks; ++kb) EXPECT_EQ(block_kept(m, qb, kb), std::abs(qb - kb) <= 2);
}

TEST(BlockMask, GlobalKeepsTheFirstBlocksBothWays) {
    const BlockMask m = mask_of(point(1024, 1024, "global", 64, 2));
    for (int qb = 0; qb < m.q_blocks; ++qb)
        for (int kb = 0; kb < m.k_blocks; ++kb) EXPECT_EQ(block_kept(m, qb, kb), qb == kb || qb < 2 || kb < 2);
}

TEST(BlockMask, ButterflyKeepsBlocksOneBitFromTheDiagonal) {
    const BlockMask m = mask_of(point(4096, 4096, "butterfly"));
    ASSERT_EQ(m.k_blocks, 64);
    for (int qb = 0; qb < m.q_blocks; ++qb) {
        EXPECT_EQ(kept_in_row(m, qb), 1 + 6);  // the diagonal and one block per bit of 64
        for (int kb = 0; kb < m.k_blocks; ++kb) EXPECT_EQ(block_kept(m, qb, kb), std::popcount(unsigned(qb ^ kb)) <= 1);
    }
}

TEST(BlockMask, RandomKeepsTheDensityAndFollowsTheSeed) {
    for (double density : {0.5, 0.125, 1.0 / 16}) {
        const BlockMask m = mask_of(point(16384, 16384, "random", 64, 1, density), 5);
        double kept = 0;
        for (int qb = 0; qb < m.q_blocks; ++qb) kept += kept_in_row(m, qb);
        EXPECT_NEAR(kept / (double(m.q_blocks) * m.k_blocks), density, 0.01) << density;
    }
    const Params p = point(4096, 4096, "random");
    int differ = 0;
    for (int qb = 0; qb < 64; ++qb)
        for (int kb = 0; kb < 64; ++kb) {
            EXPECT_EQ(block_kept(mask_of(p, 1), qb, kb), block_kept(mask_of(p, 1), qb, kb));
            differ += block_kept(mask_of(p, 1), qb, kb) != block_kept(mask_of(p, 2), qb, kb);
        }
    EXPECT_GT(differ, 100);
    // Density 1 keeps every block; below one block a row, the diagonal alone.
    EXPECT_EQ(kept_in_row(mask_of(point(4096, 4096, "random", 64, 1, 1.0)), 7), 64);
    EXPECT_EQ(kept_in_row(mask_of(point(4096, 4096, "random", 64, 1, 0.001)), 7), 1);
}

TEST(BlockMask, BadAxesAreOneLineUsageErrors) {
    auto message = [](const Params& p) -> std::string {
        try {
            (void)AttentionProblem::block_mask_from(p);
        } catch (const UsageError& e) {
            return e.what();
        }
        return "accepted";
    };
    EXPECT_EQ(message(point(256, 256, "random", 64, 1, 0.0)),
              "attention/flash_blocksparse: density must be in (0, 1], got 0");
    EXPECT_NE(message(point(256, 256, "random", 64, 1, 1.5)).find("density must be in (0, 1]"), std::string::npos);
    EXPECT_NE(message(point(256, 256, "random", 40)).find("block must be a positive multiple of 16"),
              std::string::npos);
    EXPECT_NE(message(point(256, 256, "local", 64, -1)).find("window"), std::string::npos);
    EXPECT_NE(message(point(256, 256, "strided")).find("mask must be local, global, random or butterfly"),
              std::string::npos);
    EXPECT_EQ(message(point(256, 256, "random", 64, 0, 1.0)), "accepted");
}

TEST(BlockMask, VisitedScoresCountTheKeptVisibleKeys) {
    for (bool causal : {false, true})
        for (const char* kind : {"local", "global", "random", "butterfly"}) {
            AttentionProblem p = AttentionProblem::from(point(200, 330, kind, 32, 1, 0.3, causal));
            p.mask.seed = 4;
            double pairs = 0;
            for (std::int64_t i = 0; i < p.seq_q; ++i)
                for (std::int64_t j = 0; j < p.visible_keys(i); ++j) pairs += p.key_kept(i, j) ? 1 : 0;
            EXPECT_EQ(visited_scores(p), static_cast<double>(p.heads_total()) * pairs) << kind;
            EXPECT_EQ(attention_flops(p), 4.0 * 64 * static_cast<double>(p.heads_total()) * pairs) << kind;
            EXPECT_LT(pairs, 200.0 * 330) << kind;
        }
    // Density 1 without causality: every score, the dense convention's FLOPs.
    const AttentionProblem all = AttentionProblem::from(point(200, 330, "random", 32, 1, 1.0));
    AttentionProblem dense = all;
    dense.mask = {};
    EXPECT_EQ(attention_flops(all), attention_flops(dense));
}

// Changing V in a masked block leaves the reference row alone; changing it in a kept block does not.
TEST(BlockMask, TheReferenceGivesMaskedBlocksNoWeight) {
    const AttentionProblem p = AttentionProblem::from(point(256, 256, "local", 64, 0));
    const AttentionWorkload w(p, 3);
    std::vector<float> v(w.v().begin(), w.v().end());
    std::vector<double> before(64), after(64);
    const std::int64_t i = 70;  // query block 1: keeps key block 1 alone
    attention_reference_row(w.problem(), w.q().data(), w.k().data(), v.data(), 0, i, before.data());
    for (std::int64_t c = 0; c < 64; ++c) v[static_cast<std::size_t>(200 * 64 + c)] += 1.0f;  // key 200: block 3
    attention_reference_row(w.problem(), w.q().data(), w.k().data(), v.data(), 0, i, after.data());
    EXPECT_EQ(before, after);
    for (std::int64_t c = 0; c < 64; ++c) v[static_cast<std::size_t>(100 * 64 + c)] += 1.0f;  // key 100: block 1
    attention_reference_row(w.problem(), w.q().data(), w.k().data(), v.data(), 0, i, after.data());
    EXPECT_NE(before, after);
}

}  // namespace
}  // namespace memwall
