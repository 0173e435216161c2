#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "kernels/attention/attention.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {

// Readable parameter names in gtest's output.
void PrintTo(const FlashTiles& t, std::ostream* os) { *os << "Br=" << t.br << " Bc=" << t.bc; }
void PrintTo(Isa isa, std::ostream* os) { *os << isa_name(isa); }

namespace {

struct Shape {
    std::int64_t heads, seq_q, seq_k, head_dim;
    bool causal;
};

void PrintTo(const Shape& s, std::ostream* os) {
    *os << "h=" << s.heads << " s_q=" << s.seq_q << " s_k=" << s.seq_k << " d=" << s.head_dim
        << (s.causal ? " causal" : "");
}

AttentionProblem problem(const Shape& s) {
    return attention_test::problem(2, s.heads, s.seq_q, s.seq_k, s.head_dim, s.causal);
}

// Output and workspace start as NaN, so anything the kernel fails to write shows. The ISA's
// kernel, or with none the active ISA's.
std::vector<float> run_flash(const AttentionWorkload& w, FlashTiles t, std::optional<Isa> isa = std::nullopt) {
    const AttentionProblem& p = w.problem();
    std::vector<float> o(p.q_size(), std::numeric_limits<float>::quiet_NaN());
    std::vector<float> packed(flash_workspace_floats(p, t), std::numeric_limits<float>::quiet_NaN());
    const float *q = w.q().data(), *k = w.k().data(), *v = w.v().data();
    if (!isa)
        attention_flash(p, t, q, k, v, o.data(), packed.data());
    else if (*isa == Isa::avx512)
        attention_flash<Isa::avx512>(p, t, q, k, v, o.data(), packed.data());
    else
        attention_flash<Isa::avx2>(p, t, q, k, v, o.data(), packed.data());
    return o;
}

std::vector<float> run_naive(const AttentionWorkload& w) {
    const AttentionProblem& p = w.problem();
    std::vector<float> o(p.q_size(), std::numeric_limits<float>::quiet_NaN());
    std::vector<float> scores(naive_workspace_floats(p));
    attention_naive(p, w.q().data(), w.k().data(), w.v().data(), o.data(), scores.data());
    return o;
}

class FlashAttention : public testing::TestWithParam<std::tuple<Shape, FlashTiles, Isa>> {};

// Each ISA's kernel where the host runs it.
TEST_P(FlashAttention, MatchesReferenceAndNaive) {
    const auto [shape, tiles, isa] = GetParam();
    if (isa == Isa::avx512 && host_isa() != Isa::avx512) GTEST_SKIP() << "this host has no AVX-512";
    const AttentionWorkload w(problem(shape), 23);
    const auto o = run_flash(w, tiles, isa);
    const Check c = w.check(o.data());
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_LT(c.error, 1e-5);

    const auto n = run_naive(w);
    float worst = 0;
    for (std::size_t e = 0; e < o.size(); ++e) worst = std::max(worst, std::fabs(o[e] - n[e]));
    EXPECT_LT(worst, 1e-5f);
}

// Lengths that are not multiples of the tiles, s_q < s_k and s_q > s_k (causal: fully masked
// rows), single rows and single keys, both head dims.
const Shape shapes[] = {
    {2, 100, 77, 64, false}, {2, 77, 100, 128, true}, {2, 100, 60, 64, true}, {1, 130, 130, 128, true},
    {1, 1, 200, 64, true},   {1, 200, 1, 128, false}, {1, 64, 64, 64, false}, {1, 45, 300, 128, false},
};
// Non-power-of-two tiles too; 48 = a two-vector and a one-vector micro-kernel column block
// with 16 lanes.
const FlashTiles tiles[] = {{8, 16}, {16, 32}, {32, 16}, {64, 64}, {128, 128}, {24, 48}};

INSTANTIATE_TEST_SUITE_P(ShapesAndTiles, FlashAttention,
                         testing::Combine(testing::ValuesIn(shapes), testing::ValuesIn(tiles),
                                          testing::Values(Isa::avx2, Isa::avx512)));

TEST(FlashAttention, ThePlainCallRunsTheActiveIsasKernel) {
    const char* saved = std::getenv("MEMWALL_ISA");
    const std::string restore = saved ? saved : "";
    const AttentionWorkload w(problem({1, 100, 77, 64, true}), 5);
    for (Isa isa : {Isa::avx2, Isa::avx512}) {
        if (isa == Isa::avx512 && host_isa() != Isa::avx512) continue;
        ::setenv("MEMWALL_ISA", std::string(isa_name(isa)).c_str(), 1);
        EXPECT_EQ(run_flash(w, {16, 32}), run_flash(w, {16, 32}, isa)) << isa_name(isa);
    }
    ::setenv("MEMWALL_ISA", restore.c_str(), 1);
}

TEST(FlashAttention, BcFollowsTheIsasVectorWidth) {
    EXPECT_EQ(flash_cols_granule(Isa::avx2), 8);
    EXPECT_EQ(flash_cols_granule(Isa::avx512), 16);
    EXPECT_NO_THROW(validate_tiles({8, 24}, Isa::avx2));
    EXPECT_THROW(validate_tiles({8, 24}, Isa::avx512), UsageError);
}

TEST(FlashAttention, RowsThatSeeNoKeyAreZero) {
    const AttentionWorkload w(problem({1, 50, 20, 128, true}), 4);
    const auto o = run_flash(w, {16, 16});
    for (std::int64_t bh = 0; bh < 2; ++bh)
        for (std::int64_t i = 0; i < 30; ++i)
            for (std::int64_t c = 0; c < 128; ++c) ASSERT_EQ(o[w.problem().q_offset(bh) + i * 128 + c], 0.0f);
}

TEST(FlashAttention, SampledCheckOnALargerProblem) {
    // 2 x 2 heads of 4096 x 2048 = 2^25 scores: the workload checks 64 rows per head.
    const AttentionWorkload w(problem({2, 4096, 2048, 64, true}), 29);
    ASSERT_EQ(w.reference_rows().size(), 4u * 64);
    const Check c = w.check(run_flash(w, {64, 64}).data());
    EXPECT_TRUE(c.ok) << c.message;
}

TEST(FlashAttention, WorkspaceIsKAndVPackedInZeroPaddedPanels) {
    const AttentionProblem p = problem({3, 10, 100, 64, false});
    EXPECT_EQ(flash_workspace_floats(p, {16, 32}), 2u * 2 * 3 * 128 * 64);
    EXPECT_EQ(flash_workspace_floats(p, {16, 128}), 2u * 2 * 3 * 128 * 64);
    EXPECT_EQ(flash_workspace_floats(p, {16, 16}), 2u * 2 * 3 * 112 * 64);
    EXPECT_EQ(flash_scratch_floats(p, {16, 32}), 16u * (2 * 64 + 32 + 3));
}

TEST(FlashAttention, RejectsTilesTheMicroKernelCannotUse) {
    const int cols = flash_cols_granule();
    EXPECT_THROW(validate_tiles({12, cols}), UsageError);
    EXPECT_THROW(validate_tiles({0, cols}), UsageError);
    EXPECT_THROW(validate_tiles({16, cols + 4}), UsageError);
    EXPECT_NO_THROW(validate_tiles({8, cols}));
    EXPECT_NO_THROW(validate_tiles({40, 3 * cols}));
}

}  // namespace
}  // namespace memwall
