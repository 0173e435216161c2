#include "stats/mann_whitney.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace memwall {
namespace {

// Two-sided p by enumerating every assignment of the pooled values to the two groups.
double brute_force_p(const std::vector<double>& x, const std::vector<double>& y) {
    std::vector<double> pooled = x;
    pooled.insert(pooled.end(), y.begin(), y.end());
    const std::size_t m = x.size(), total = pooled.size();
    auto u_of = [&](const std::vector<bool>& in_x) {
        double u = 0;
        for (std::size_t i = 0; i < total; ++i)
            for (std::size_t j = 0; j < total; ++j)
                if (in_x[i] && !in_x[j]) u += pooled[i] > pooled[j] ? 1.0 : pooled[i] == pooled[j] ? 0.5 : 0.0;
        return u;
    };
    std::vector<bool> observed(total, false);
    std::fill(observed.begin(), observed.begin() + static_cast<std::ptrdiff_t>(m), true);
    const double centre = static_cast<double>(m * y.size()) / 2;
    const double dev = std::abs(u_of(observed) - centre);
    std::vector<bool> in_x(total, false);
    std::fill(in_x.end() - static_cast<std::ptrdiff_t>(m), in_x.end(), true);
    double extreme = 0, all = 0;
    do {
        all += 1;
        if (std::abs(u_of(in_x) - centre) >= dev - 1e-9) extreme += 1;
    } while (std::next_permutation(in_x.begin(), in_x.end()));
    return extreme / all;
}

TEST(MannWhitney, MatchesRDocumentationExample) {
    // ?wilcox.test: W = 35, one-sided (greater) p-value = 0.1272, so two-sided 0.2544.
    const std::vector<double> x{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
    const std::vector<double> y{1.15, 0.88, 0.90, 0.74, 1.21};
    const RankTest r = mann_whitney(x, y);
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.u, 35);
    EXPECT_NEAR(r.p, 2 * 382.0 / 3003.0, 1e-12);
    EXPECT_NEAR(r.p, 0.2544, 1e-4);
}

TEST(MannWhitney, CompleteSeparationGivesTheSmallestExactP) {
    const std::vector<double> a{1, 2, 3, 4}, b{5, 6, 7, 8};
    EXPECT_NEAR(mann_whitney(a, b).p, 2.0 / 70.0, 1e-15);  // 2 / C(8, 4)
    EXPECT_DOUBLE_EQ(mann_whitney(a, b).u, 0);
    EXPECT_DOUBLE_EQ(mann_whitney(b, a).u, 16);
    // Three against three can never reach 0.05: 2 / C(6, 3) = 0.1.
    EXPECT_NEAR(mann_whitney(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6}).p, 0.1, 1e-15);
}

TEST(MannWhitney, ExactDistributionMatchesEnumeration) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0, 1);
    for (auto [m, n] : {std::pair{3, 4}, {5, 6}, {6, 6}, {2, 9}, {7, 5}}) {
        std::vector<double> x, y;
        for (int i = 0; i < m; ++i) x.push_back(noise(rng) + 0.8);
        for (int i = 0; i < n; ++i) y.push_back(noise(rng));
        const RankTest r = mann_whitney(x, y);
        ASSERT_TRUE(r.exact);
        EXPECT_NEAR(r.p, brute_force_p(x, y), 1e-12) << m << " vs " << n;
    }
}

TEST(MannWhitney, TiesUseTheCorrectedNormalApproximation) {
    // x = {1, 2, 2}, y = {2, 3, 3}: mid-ranks 1, 3, 3 | 3, 5.5, 5.5; U = 7 - 6 = 1; tie term
    // (27 - 3) + (8 - 2) = 30; var = 9/12 (7 - 30/30) = 4.5; z = (|1 - 4.5| - 0.5) / sqrt(4.5).
    const RankTest r = mann_whitney(std::vector<double>{1, 2, 2}, std::vector<double>{2, 3, 3});
    EXPECT_FALSE(r.exact);
    EXPECT_DOUBLE_EQ(r.u, 1);
    EXPECT_NEAR(r.p, std::erfc(3 / std::sqrt(4.5) / std::sqrt(2.0)), 1e-12);
    EXPECT_NEAR(r.p, 0.1573, 1e-4);
}

TEST(MannWhitney, LargeSamplesAgreeWithTheExactDistribution) {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0, 1);
    std::vector<double> x, y;
    for (int i = 0; i < 45; ++i) x.push_back(noise(rng) + 0.5);
    for (int i = 0; i < 45; ++i) y.push_back(noise(rng));
    const RankTest exact = mann_whitney(x, y);
    const RankTest normal = mann_whitney(x, y, 0);  // force the approximation
    ASSERT_TRUE(exact.exact);
    ASSERT_FALSE(normal.exact);
    EXPECT_LT(exact.p, 0.05);
    EXPECT_NEAR(normal.p, exact.p, 0.1 * exact.p);
}

TEST(MannWhitney, DegenerateInputsGiveNoEvidence) {
    const std::vector<double> none, some{1, 2, 3}, same{4, 4, 4, 4};
    EXPECT_EQ(mann_whitney(none, some).p, 1);
    EXPECT_EQ(mann_whitney(some, none).p, 1);
    EXPECT_EQ(mann_whitney(same, same).p, 1);
}

TEST(MannWhitney, IsSymmetric) {
    const std::vector<double> a{1.1, 2.5, 0.3, 4.2, 3.3}, b{2.2, 5.1, 6.0, 4.4};
    EXPECT_DOUBLE_EQ(mann_whitney(a, b).p, mann_whitney(b, a).p);
    EXPECT_DOUBLE_EQ(mann_whitney(a, b).u + mann_whitney(b, a).u, 20);
}

}  // namespace
}  // namespace memwall
