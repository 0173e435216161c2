#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <tuple>

#include <gtest/gtest.h>

#include "kernels/attention/attention.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {

// Readable parameter names in gtest's output.
void PrintTo(Isa isa, std::ostream* os) { *os << isa_name(isa); }

namespace {

struct Shape {
    std::int64_t heads, seq_q, seq_k, head_dim;
    bool causal;
};

// The ISA's kernel, or with none the active ISA's.
std::vector<float> run_naive(const AttentionWorkload& w, std::optional<Isa> isa = std::nullopt) {
    const AttentionProblem& p = w.problem();
    std::vector<float> o(p.q_size(), std::numeric_limits<float>::quiet_NaN());
    std::vector<float> scores(naive_workspace_floats(p), std::numeric_limits<float>::quiet_NaN());
    const float *q = w.q().data(), *k = w.k().data(), *v = w.v().data();
    if (!isa)
        attention_naive(p, q, k, v, o.data(), scores.data());
    else if (*isa == Isa::avx512)
        attention_naive<Isa::avx512>(p, q, k, v, o.data(), scores.data());
    else
        attention_naive<Isa::avx2>(p, q, k, v, o.data(), scores.data());
    return o;
}

class NaiveAttention : public testing::TestWithParam<std::tuple<Shape, Isa>> {};

// Each ISA's kernel where the host runs it.
TEST_P(NaiveAttention, MatchesTheFloat64Reference) {
    const auto [s, isa] = GetParam();
    if (isa == Isa::avx512 && host_isa() != Isa::avx512) GTEST_SKIP() << "this host has no AVX-512";
    const AttentionWorkload w(attention_test::problem(2, s.heads, s.seq_q, s.seq_k, s.head_dim, s.causal), 17);
    const auto o = run_naive(w, isa);
    const Check c = w.check(o.data());
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_LT(c.error, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(Shapes, NaiveAttention,
                         testing::Combine(testing::Values(Shape{3, 64, 64, 64, false}, Shape{2, 37, 91, 128, false},
                                                          Shape{2, 91, 37, 64, true}, Shape{2, 37, 91, 128, true},
                                                          Shape{1, 1, 50, 64, true}, Shape{1, 50, 1, 128, true}),
                                          testing::Values(Isa::avx2, Isa::avx512)));

TEST(NaiveAttention, ScoreWorkspaceHoldsEveryHead) {
    AttentionProblem p;
    p.batch = 2;
    p.heads = 3;
    p.seq_q = 5;
    p.seq_k = 7;
    EXPECT_EQ(naive_workspace_floats(p), 2u * 3 * 5 * 7);
}

TEST(NaiveAttention, RowsThatSeeNoKeyAreZero) {
    AttentionProblem p;
    p.heads = 2;
    p.seq_q = 30;
    p.seq_k = 10;
    p.causal = true;
    const AttentionWorkload w(p, 4);
    const auto o = run_naive(w);
    for (std::int64_t bh = 0; bh < 2; ++bh)
        for (std::int64_t i = 0; i < 20; ++i)
            for (std::int64_t c = 0; c < 64; ++c) ASSERT_EQ(o[p.q_offset(bh) + i * 64 + c], 0.0f);
}

}  // namespace
}  // namespace memwall
