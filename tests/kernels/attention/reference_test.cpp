#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "cuda_emu/bfloat16.hpp"
#include "kernels/attention/attention.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {
namespace {

AttentionProblem problem(std::int64_t h, std::int64_t sq, std::int64_t sk, std::int64_t d, bool causal) {
    return attention_test::problem(1, h, sq, sk, d, causal);
}

// The workload's reference rows laid out as a full output (rows not held stay 0).
std::vector<float> reference_output(const AttentionWorkload& w) {
    std::vector<float> o(w.problem().q_size(), 0.0f);
    const std::int64_t d = w.problem().head_dim;
    for (std::size_t r = 0; r < w.reference_rows().size(); ++r)
        for (std::int64_t c = 0; c < d; ++c)
            o[static_cast<std::size_t>(w.reference_rows()[r] * d + c)] =
                static_cast<float>(w.reference()[r * static_cast<std::size_t>(d) + static_cast<std::size_t>(c)]);
    return o;
}

TEST(AttentionWorkload, InputsAreSeededUniformAndNeverZero) {
    const auto p = problem(2, 33, 45, 64, false);
    const AttentionWorkload a(p, 7), b(p, 7), c(p, 8);
    EXPECT_EQ(a.q(), b.q());
    EXPECT_EQ(a.v(), b.v());
    EXPECT_NE(a.k(), c.k());
    for (const auto* x : {&a.q(), &a.k(), &a.v()}) {
        const auto [lo, hi] = std::minmax_element(x->begin(), x->end());
        EXPECT_GE(*lo, -1.0f);
        EXPECT_LE(*hi, 1.0f);
        EXPECT_LT(*lo, -0.9f);
        EXPECT_GT(*hi, 0.9f);
        EXPECT_EQ(std::count(x->begin(), x->end(), 0.0f), 0);
    }
}

// bf16 inputs are the fp32 draws rounded to bf16, so the reference sees what the kernels load.
TEST(AttentionWorkload, Bf16InputsAreExactlyRepresentable) {
    auto p = problem(1, 20, 30, 64, false);
    const AttentionWorkload fp32(p, 7);
    p.dtype = AttentionDtype::bf16;
    const AttentionWorkload bf16(p, 7);
    for (const auto* x : {&bf16.q(), &bf16.k(), &bf16.v()})
        for (float e : *x) {
            ASSERT_EQ(std::bit_cast<std::uint32_t>(e) & 0xffffu, 0u) << e;  // 8-bit significand
            ASSERT_NE(e, 0.0f);
        }
    for (std::size_t i = 0; i < fp32.q().size(); ++i)
        ASSERT_NEAR(bf16.q()[i], fp32.q()[i], std::abs(fp32.q()[i]) * 0x1p-8);  // unit roundoff
}

TEST(AttentionReference, OneKeyCopiesItsValueRow) {
    const auto p = problem(1, 3, 1, 64, false);
    const AttentionWorkload w(p, 1);
    std::vector<double> out(64);
    attention_reference_row(p, w.q().data(), w.k().data(), w.v().data(), 0, 2, out.data());
    for (int c = 0; c < 64; ++c) EXPECT_DOUBLE_EQ(out[c], w.v()[c]);
}

TEST(AttentionReference, EqualScoresAverageTheValues) {
    auto p = problem(1, 1, 3, 64, false);
    std::vector<float> q(64, 0.5f), k(3 * 64, 0.25f), v(3 * 64);
    for (int j = 0; j < 3; ++j)
        for (int c = 0; c < 64; ++c) v[j * 64 + c] = static_cast<float>(j + 1) * 0.5f;
    std::vector<double> out(64);
    attention_reference_row(p, q.data(), k.data(), v.data(), 0, 0, out.data());
    EXPECT_NEAR(out[0], 1.0, 1e-15);
    // Causal with s_q = s_k = 1 per the alignment: the row sees key 0 only.
    p.causal = true;
    p.seq_q = 1;
    p.seq_k = 1;
    attention_reference_row(p, q.data(), k.data(), v.data(), 0, 0, out.data());
    EXPECT_NEAR(out[5], 0.5, 1e-15);
}

TEST(AttentionReference, RowThatSeesNoKeyIsZero) {
    const auto p = problem(1, 5, 2, 64, true);
    const AttentionWorkload w(p, 3);
    std::vector<double> out(64, 1.0);
    attention_reference_row(p, w.q().data(), w.k().data(), w.v().data(), 0, 2, out.data());
    EXPECT_EQ(std::count(out.begin(), out.end(), 0.0), 64);
}

TEST(AttentionReference, AllRowsWhenSmall) {
    const auto p = problem(2, 100, 100, 64, false);
    const auto rows = attention_reference_rows(p, 1, AttentionWorkload::kDefaultFullReferenceLimit);
    ASSERT_EQ(rows.size(), 200u);
    EXPECT_EQ(rows.front(), 0);
    EXPECT_EQ(rows.back(), 199);
}

TEST(AttentionReference, SampledRowsIncludeTheEdges) {
    // Causal with s_q > s_k: rows 0..199 see no key; 200 sees one.
    const auto p = problem(3, 1000, 800, 64, true);
    const auto rows = attention_reference_rows(p, 5, 1000);
    ASSERT_EQ(rows.size(), 3u * AttentionWorkload::kSampledRowsPerHead);
    EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
    EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end());
    for (std::int64_t bh = 0; bh < 3; ++bh)
        for (std::int64_t i : {0, 199, 200, 201, 999})
            EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), bh * 1000 + i)) << bh << ", " << i;
    EXPECT_EQ(attention_reference_rows(p, 5, 1000), rows);
    EXPECT_NE(attention_reference_rows(p, 6, 1000), rows);
}

TEST(AttentionCheck, AcceptsTheReferenceAndRejectsAPerturbation) {
    const auto p = problem(2, 40, 50, 64, true);
    const AttentionWorkload w(p, 11);
    auto o = reference_output(w);
    Check c = w.check(o.data());
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_LT(c.error, 1e-7);
    EXPECT_EQ(c.tolerance, 1e-4);

    o[1234] += 0.05f;
    c = w.check(o.data());
    EXPECT_FALSE(c.ok);
    EXPECT_GT(c.error, 1e-4);
    EXPECT_NE(c.message.find("relative L2 error"), std::string::npos) << c.message;
}

// An output rounded to bf16 is within 2^-8 of the reference element-wise: bf16's bound
// accepts it, fp32's does not; a perturbation of a few bf16 steps fails.
TEST(AttentionCheck, Bf16ToleranceCoversTheOutputRounding) {
    auto p = problem(2, 40, 50, 64, true);
    p.dtype = AttentionDtype::bf16;
    const AttentionWorkload w(p, 11);
    auto o = reference_output(w);
    for (float& e : o) e = __bfloat162float(__float2bfloat16_rn(e));
    Check c = w.check(o.data());
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_EQ(c.tolerance, AttentionWorkload::kBf16Tolerance);
    EXPECT_GT(c.error, AttentionWorkload::kFp32Tolerance);
    for (float& e : o) e *= 1.0f + 0x1p-6f;
    c = w.check(o.data());
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find("exceeds 0.00401"), std::string::npos) << c.message;
}

TEST(AttentionCheck, NamesTheFirstUnwrittenElement) {
    const auto p = problem(2, 40, 50, 64, false);
    const AttentionWorkload w(p, 11);
    auto o = reference_output(w);
    // Head 1, row 3, column 5.
    o[(1 * 40 + 3) * 64 + 5] = std::numeric_limits<float>::quiet_NaN();
    Check c = w.check(o.data());
    EXPECT_FALSE(c.ok);
    EXPECT_EQ(c.message, "O[b=0, h=1, i=3, d=5] is nan: not written or not finite");

    o[(1 * 40 + 3) * 64 + 5] = std::numeric_limits<float>::infinity();
    EXPECT_FALSE(w.check(o.data()).ok);
}

TEST(AttentionCheck, SampledRowsOfALargerProblem) {
    // 2^25 scores: above the full-reference limit, so 64 rows per head are checked.
    const auto p = problem(2, 4096, 4096, 64, false);
    const AttentionWorkload w(p, 2);
    ASSERT_EQ(w.reference_rows().size(), 128u);
    auto o = reference_output(w);
    // Rows outside the sample are not compared, but must still be finite: poison one.
    std::int64_t unsampled = 1;
    while (std::binary_search(w.reference_rows().begin(), w.reference_rows().end(), unsampled)) ++unsampled;
    EXPECT_TRUE(w.check(o.data()).ok);
    o[static_cast<std::size_t>(unsampled * 64)] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(w.check(o.data()).ok);
    o[static_cast<std::size_t>(unsampled * 64)] = 0;
    // A wrong sampled row fails.
    const std::int64_t last = w.reference_rows().back();
    for (int c = 0; c < 64; ++c) o[static_cast<std::size_t>(last * 64 + c)] *= 1.01f;
    EXPECT_FALSE(w.check(o.data()).ok);
}

}  // namespace
}  // namespace memwall
