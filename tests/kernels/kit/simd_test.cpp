#include "kernels/kit/simd.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace memwall::kit::simd {
namespace {

TEST(Vexp2, RelativeErrorBelow2e7OverTheNormalRange) {
    double worst = 0;
    float at = 0;
    vf x;
    for (float base = -126.0f; base <= 127.0f - lanes * 0.00173f; base += lanes * 0.00173f) {
        for (int i = 0; i < lanes; ++i) x[i] = base + static_cast<float>(i) * 0.00173f;
        const vf r = vexp2(x);
        for (int i = 0; i < lanes; ++i) {
            const double exact = std::exp2(static_cast<double>(x[i]));
            const double rel = std::fabs(static_cast<double>(r[i]) - exact) / exact;
            if (rel > worst) {
                worst = rel;
                at = x[i];
            }
        }
    }
    EXPECT_LT(worst, 2e-7) << "at x = " << at;
}

TEST(Vexp2, ExactAtIntegers) {
    for (int n = -126; n <= 127; ++n) EXPECT_EQ(exp2_scalar(static_cast<float>(n)), std::ldexp(1.0f, n)) << "n = " << n;
}

TEST(Vexp2, MaskedScoresGiveZeroAndNaNPropagates) {
    EXPECT_EQ(exp2_scalar(-std::numeric_limits<float>::infinity()), 0.0f);
    EXPECT_EQ(exp2_scalar(-1000.0f), 0.0f);
    EXPECT_EQ(exp2_scalar(-127.0f), 0.0f);
    EXPECT_TRUE(std::isnan(exp2_scalar(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_TRUE(std::isfinite(exp2_scalar(1000.0f)));
}

TEST(Vector, HorizontalReductions) {
    vf v;
    for (int i = 0; i < lanes; ++i) v[i] = static_cast<float>(i % 5) - 2.0f * static_cast<float>(i == 3);
    float sum = 0;
    float mx = v[0];
    for (int i = 0; i < lanes; ++i) {
        sum += v[i];
        mx = std::max(mx, v[i]);
    }
    EXPECT_EQ(hsum(v), sum);
    EXPECT_EQ(hmax(v), mx);
    EXPECT_EQ(iota()[lanes - 1], lanes - 1);
}

}  // namespace
}  // namespace memwall::kit::simd

#if defined(__AVX512F__) || defined(__FMA__)
TEST(Vector, FmaRoundsOnce) {
    // (1 + 2^-23)^2 - (1 + 2^-22) is 2^-46 exactly; a separate multiply rounds it away to 0.
    const float a = 1.0f + 0x1p-23f;
    const memwall::kit::simd::vf r = memwall::kit::simd::fma(memwall::kit::simd::splat(a), memwall::kit::simd::splat(a),
                                                             memwall::kit::simd::splat(-(1.0f + 0x1p-22f)));
    for (int i = 0; i < memwall::kit::simd::lanes; ++i) EXPECT_EQ(r[i], 0x1p-46f);
}
#endif
