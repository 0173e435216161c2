#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/lora/lora.hpp"
#include "lora_test_support.hpp"

namespace memwall {
namespace {

using lora_test::point_of;

LoraWorkload workload(const lora_test::Shape& s, std::uint64_t seed = 5) {
    return LoraWorkload(LoraProblem::from(point_of(s)), seed);
}

TEST(LoraWorkload, InputsAreNeverZeroAndBf16InputsAreExactBf16) {
    const LoraWorkload w = workload({9, 37, 11, 5, 2, 0.1, 16, "bf16"});
    const LoraProblem& p = w.problem();
    for (std::int64_t i = 0; i < p.m * p.k; ++i) {
        EXPECT_NE(w.x()[i], 0.0f);
        EXPECT_EQ(std::bit_cast<std::uint32_t>(w.x()[i]) & 0xffffu, 0u);  // a bf16 value
        EXPECT_EQ(std::bit_cast<std::uint32_t>(w.x()[i]) >> 16, w.x16()[i]);
    }
    for (std::int64_t i = 0; i < p.r * p.n; ++i) EXPECT_EQ(std::bit_cast<std::uint32_t>(w.b(1)[i]) >> 16, w.b16(1)[i]);
}

TEST(LoraWorkload, TheMaskKeepsOneMinusPOfTheElementsAndNothingPastK) {
    const LoraWorkload w = workload({64, 1000, 4, 2, 1, 0.1});
    const LoraProblem& p = w.problem();
    std::int64_t kept = 0;
    for (std::int64_t t = 0; t < p.m; ++t) {
        for (std::int64_t k = 0; k < p.k; ++k) kept += (w.mask()[t * p.mask_words() + k / 32] >> (k % 32)) & 1u;
        EXPECT_EQ(w.mask()[t * p.mask_words() + p.mask_words() - 1] >> (p.k % 32), 0u);  // bits past K stay 0
    }
    // 64000 draws: the standard deviation of the fraction is 0.0012.
    EXPECT_NEAR(static_cast<double>(kept) / static_cast<double>(p.m * p.k), 0.9, 0.01);
    const LoraWorkload all = workload({4, 40, 4, 2, 1, 0.0});
    EXPECT_EQ(all.mask()[0], 0xffffffffu);
    EXPECT_EQ(all.mask()[1], 0xffu);
}

TEST(LoraWorkload, ReferenceFollowsTheDefinitionPerAdapter) {
    // Three adapters, a mask and α: the dgemm reference against one computed term by term.
    const LoraWorkload w = workload({13, 45, 17, 3, 3, 0.3, 2.5});
    const std::vector<double> ref = lora_test::naive_lora(w, false);
    std::vector<float> y(ref.begin(), ref.end());
    const Check c = w.check(y.data());
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_LT(c.error, 1e-7);
    // X·W alone is the base variant's output: right for base_only, far off for the LoRA output
    // (the adapter's term is about as large as the base term).
    const std::vector<double> base = lora_test::naive_lora(w, true);
    std::vector<float> yb(base.begin(), base.end());
    EXPECT_TRUE(w.check(yb.data(), true).ok);
    EXPECT_GT(w.check(yb.data()).error, 0.3);
}

TEST(LoraWorkload, TheCheckCatchesAWrongAdapterAMissingScaleAndAnUnwrittenElement) {
    const LoraWorkload w = workload({12, 64, 20, 4, 2, 0.1, 16});
    const LoraProblem& p = w.problem();
    const std::vector<double> ref = lora_test::naive_lora(w, false);
    const std::vector<double> base = lora_test::naive_lora(w, true);
    // Dropout's 1/(1-p) left out: the adapter's term 10% too small.
    std::vector<float> unscaled(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i)
        unscaled[i] = static_cast<float>(base[i] + (ref[i] - base[i]) * (1 - p.dropout));
    EXPECT_FALSE(w.check(unscaled.data()).ok);
    // The last token (adapter 1) given token 0's adapter term: a row that looked up the wrong one.
    std::vector<float> swapped(ref.begin(), ref.end());
    for (std::int64_t n = 0; n < p.n; ++n)
        swapped[static_cast<std::size_t>((p.m - 1) * p.n + n)] =
            static_cast<float>(base[static_cast<std::size_t>((p.m - 1) * p.n + n)] + ref[static_cast<std::size_t>(n)] -
                               base[static_cast<std::size_t>(n)]);
    EXPECT_FALSE(w.check(swapped.data()).ok);
    std::vector<float> unwritten(ref.begin(), ref.end());
    unwritten[7] = std::numeric_limits<float>::quiet_NaN();
    const Check c = w.check(unwritten.data());
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find("Y[0][7]"), std::string::npos) << c.message;
}

}  // namespace
}  // namespace memwall
