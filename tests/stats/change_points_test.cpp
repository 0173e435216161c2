#include "stats/change_points.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace memwall {
namespace {

std::vector<double> noisy(std::vector<double> levels, double sd, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0, sd);
    for (double& v : levels) v *= std::exp(z(rng));
    return levels;
}

std::vector<double> steps(std::initializer_list<std::pair<int, double>> parts) {
    std::vector<double> out;
    for (auto [count, level] : parts)
        for (int i = 0; i < count; ++i) out.push_back(level);
    return out;
}

TEST(ChangePoints, FindsAStepLargerThanTheNoise) {
    const auto v = noisy(steps({{12, 1.0}, {10, 1.2}}), 0.01, 1);
    const auto cps = detect_change_points(v, {});
    ASSERT_EQ(cps.size(), 1u);
    EXPECT_EQ(cps[0].index, 12u);
    EXPECT_NEAR(cps[0].before, 1.0, 0.02);
    EXPECT_NEAR(cps[0].after, 1.2, 0.02);
    EXPECT_GE(cps[0].score, 4);
}

TEST(ChangePoints, FindsStepsUpAndDown) {
    const auto v = noisy(steps({{8, 1.0}, {8, 1.3}, {8, 0.9}}), 0.01, 2);
    const auto cps = detect_change_points(v, {});
    ASSERT_EQ(cps.size(), 2u);
    EXPECT_EQ(cps[0].index, 8u);
    EXPECT_EQ(cps[1].index, 16u);
    EXPECT_LT(cps[1].after, cps[1].before);
}

TEST(ChangePoints, NoiseAloneHasNoChangePoint) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed)
        EXPECT_TRUE(detect_change_points(noisy(steps({{40, 1.0}}), 0.03, seed), {}).empty()) << seed;
}

TEST(ChangePoints, AStepWithinTheNoiseOrBelowTheThresholdIsNoChangePoint) {
    // 10% step under 10% run-to-run noise.
    EXPECT_TRUE(detect_change_points(noisy(steps({{10, 1.0}, {10, 1.1}}), 0.10, 3), {}).empty());
    // 3% step, noiseless: clear, but below the 5% threshold.
    EXPECT_TRUE(detect_change_points(steps({{10, 1.0}, {10, 1.03}}), {}).empty());
    ChangeOptions fine;
    fine.threshold = 0.02;
    EXPECT_EQ(detect_change_points(steps({{10, 1.0}, {10, 1.03}}), {}, fine).size(), 1u);
}

TEST(ChangePoints, OneOddRunIsNoStep) {
    auto v = noisy(steps({{20, 1.0}}), 0.005, 4);
    v[10] = 1.5;
    EXPECT_TRUE(detect_change_points(v, {}).empty());
}

TEST(ChangePoints, EachPointsOwnErrorCounts) {
    // Noiseless medians, but each measured with a 10% standard error: a 6% step is not clear.
    const auto v = steps({{4, 1.0}, {4, 1.06}});
    EXPECT_EQ(detect_change_points(v, {}).size(), 1u);
    EXPECT_TRUE(detect_change_points(v, std::vector<double>(8, 0.10)).empty());
}

TEST(ChangePoints, RefusesBadInput) {
    EXPECT_THROW(detect_change_points(std::vector<double>{1, 0, 2}, {}), std::invalid_argument);
    EXPECT_THROW(detect_change_points(std::vector<double>{1, 2}, std::vector<double>{0.1}), std::invalid_argument);
    EXPECT_TRUE(detect_change_points({}, {}).empty());
}

}  // namespace
}  // namespace memwall
