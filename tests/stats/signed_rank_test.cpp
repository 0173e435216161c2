#include "stats/signed_rank.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace memwall {
namespace {

// Two-sided p by flipping the sign of every difference in every way.
double brute_force_p(const std::vector<double>& d) {
    const std::size_t n = d.size();
    std::vector<double> rank(n);
    for (std::size_t i = 0; i < n; ++i) {
        double below = 0, equal = 0;
        for (double y : d) {
            below += std::abs(y) < std::abs(d[i]);
            equal += std::abs(y) == std::abs(d[i]);
        }
        rank[i] = below + (equal + 1) / 2;
    }
    auto v_of = [&](unsigned mask) {
        double v = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (mask >> i & 1u) v += rank[i];
        return v;
    };
    unsigned observed = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (d[i] > 0) observed |= 1u << i;
    const double centre = static_cast<double>(n * (n + 1)) / 4;
    const double dev = std::abs(v_of(observed) - centre);
    double extreme = 0;
    for (unsigned mask = 0; mask < 1u << n; ++mask) extreme += std::abs(v_of(mask) - centre) >= dev - 1e-9;
    return extreme / std::ldexp(1.0, static_cast<int>(n));
}

TEST(SignedRank, MatchesRDocumentationExample) {
    // ?wilcox.test, Hollander & Wolfe's depression scores: V = 40, one-sided (greater)
    // p-value = 0.01953 = 10 / 512, so two-sided 20 / 512.
    const std::vector<double> x{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
    const std::vector<double> y{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
    std::vector<double> d;
    for (std::size_t i = 0; i < x.size(); ++i) d.push_back(x[i] - y[i]);
    const SignedRankTest r = signed_rank(d);
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.v, 40);
    EXPECT_EQ(r.n, 9u);
    EXPECT_NEAR(r.p, 20.0 / 512.0, 1e-15);
}

TEST(SignedRank, AllOneSignGivesTheSmallestExactP) {
    // Five pairs, all slower: 2 / 2^5 = 0.0625 can never reach 0.05; six give 2 / 64.
    EXPECT_NEAR(signed_rank(std::vector<double>{1, 2, 3, 4, 5}).p, 2.0 / 32.0, 1e-15);
    EXPECT_NEAR(signed_rank(std::vector<double>{-1, -2, -3, -4, -5, -6}).p, 2.0 / 64.0, 1e-15);
    EXPECT_DOUBLE_EQ(signed_rank(std::vector<double>{-1, -2, -3, -4, -5, -6}).v, 0);
}

TEST(SignedRank, ExactDistributionMatchesEnumeration) {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> noise(0.2, 1.0);
    for (std::size_t n : {1u, 2u, 5u, 8u, 12u, 16u}) {
        std::vector<double> d(n);
        for (double& x : d) x = noise(rng);
        const SignedRankTest r = signed_rank(d);
        ASSERT_TRUE(r.exact);
        EXPECT_NEAR(r.p, brute_force_p(d), 1e-12) << n;
    }
}

TEST(SignedRank, NormalApproximationIsCloseToTheExactTail) {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> noise(0.3, 1.0);
    std::vector<double> d(40);
    for (double& x : d) x = noise(rng);
    const SignedRankTest exact = signed_rank(d);
    const SignedRankTest approx = signed_rank(d, 0);
    ASSERT_TRUE(exact.exact);
    ASSERT_FALSE(approx.exact);
    EXPECT_NEAR(approx.p, exact.p, 0.005);
}

TEST(SignedRank, TiesAndZerosUseTheCorrectedNormalApproximation) {
    // d = {0, 1, 1, 2, -2}: the zero is dropped; |d| ranks 1.5, 1.5, 3.5, 3.5 (ties), V = 6.5.
    // Variance 4*5*9/24 - (6 + 6)/48 = 7.25; z = (|6.5 - 5| - 0.5) / sqrt(7.25).
    const SignedRankTest r = signed_rank(std::vector<double>{0, 1, 1, 2, -2});
    EXPECT_FALSE(r.exact);
    EXPECT_EQ(r.n, 4u);
    EXPECT_DOUBLE_EQ(r.v, 6.5);
    EXPECT_NEAR(r.p, std::erfc(1.0 / std::sqrt(7.25) / std::sqrt(2.0)), 1e-12);
}

TEST(SignedRank, NoEvidenceGivesOne) {
    EXPECT_DOUBLE_EQ(signed_rank(std::vector<double>{}).p, 1);
    EXPECT_DOUBLE_EQ(signed_rank(std::vector<double>{0, 0, 0}).p, 1);
    EXPECT_DOUBLE_EQ(signed_rank(std::vector<double>{1, -1}).p, 1);
}

}  // namespace
}  // namespace memwall
