#include "stats/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace memwall {
namespace {

std::vector<double> iota_values(std::size_t n) {
    std::vector<double> v(n);
    std::iota(v.begin(), v.end(), 1.0);
    return v;
}

TEST(Summarize, EmptyIsAllZeroNotNaN) {
    const Summary s = summarize({});
    EXPECT_EQ(s.n, 0u);
    for (double v : {s.median, s.min, s.max, s.mean, s.stddev, s.q1, s.q3, s.iqr, s.rsd}) EXPECT_EQ(v, 0.0);
}

TEST(Summarize, OneSampleHasZeroSpread) {
    const std::vector<double> xs{5.0};
    const Summary s = summarize(xs);
    EXPECT_EQ(s.n, 1u);
    EXPECT_EQ(s.median, 5.0);
    EXPECT_EQ(s.min, 5.0);
    EXPECT_EQ(s.max, 5.0);
    EXPECT_EQ(s.mean, 5.0);
    EXPECT_EQ(s.stddev, 0.0);
    EXPECT_EQ(s.q1, 5.0);
    EXPECT_EQ(s.q3, 5.0);
    EXPECT_EQ(s.iqr, 0.0);
    EXPECT_EQ(s.rsd, 0.0);
}

TEST(Summarize, OddCountByHand) {
    const std::vector<double> xs{3, 1, 4, 1, 5};  // sorted 1 1 3 4 5
    const Summary s = summarize(xs);
    EXPECT_EQ(s.n, 5u);
    EXPECT_DOUBLE_EQ(s.median, 3);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 5);
    EXPECT_DOUBLE_EQ(s.mean, 2.8);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(12.8 / 4));  // squared deviations sum to 12.8
    EXPECT_DOUBLE_EQ(s.q1, 1);                        // h = 1
    EXPECT_DOUBLE_EQ(s.q3, 4);                        // h = 3
    EXPECT_DOUBLE_EQ(s.iqr, 3);
    EXPECT_DOUBLE_EQ(s.rsd, std::sqrt(3.2) / 2.8);
}

TEST(Summarize, EvenCountByHand) {
    const std::vector<double> xs{10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    const Summary s = summarize(xs);
    EXPECT_DOUBLE_EQ(s.median, 5.5);
    EXPECT_DOUBLE_EQ(s.mean, 5.5);
    EXPECT_DOUBLE_EQ(s.q1, 3.25);  // h = 9 * 0.25 = 2.25: 3 + 0.25 * (4 - 3)
    EXPECT_DOUBLE_EQ(s.q3, 7.75);  // h = 6.75
    EXPECT_DOUBLE_EQ(s.iqr, 4.5);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(82.5 / 9));
}

TEST(QuantileSorted, InterpolatesBetweenOrderStatistics) {
    const std::vector<double> xs{10, 20, 30, 40};
    EXPECT_DOUBLE_EQ(quantile_sorted(xs, 0), 10);
    EXPECT_DOUBLE_EQ(quantile_sorted(xs, 1), 40);
    EXPECT_DOUBLE_EQ(quantile_sorted(xs, 1.0 / 3), 20);
    EXPECT_DOUBLE_EQ(quantile_sorted(xs, 0.5), 25);
    EXPECT_DOUBLE_EQ(quantile_sorted(xs, 0.9), 37);  // h = 2.7
}

TEST(QuantileSorted, RejectsNoDataAndOutOfRange) {
    EXPECT_THROW(quantile_sorted({}, 0.5), std::invalid_argument);
    const std::vector<double> xs{1, 2};
    EXPECT_THROW(quantile_sorted(xs, 1.5), std::invalid_argument);
    EXPECT_THROW(quantile_sorted(xs, -0.1), std::invalid_argument);
    EXPECT_THROW(quantile_sorted(xs, std::nan("")), std::invalid_argument);
}

// Hand values: P(B <= 1) = 10/512 <= 0.025 < P(B <= 2) = 46/512 for n = 9, so k = 2; for
// n = 10, P(B <= 1) = 11/1024 and P(B <= 2) = 56/1024, so k = 2.
TEST(MedianCi, OrderStatisticsByHand) {
    std::vector<double> nine{9, 1, 8, 2, 7, 3, 6, 4, 5};
    const Interval a = median_ci(nine);
    EXPECT_EQ(a.lo, 2);
    EXPECT_EQ(a.hi, 8);
    const Interval b = median_ci(iota_values(10));
    EXPECT_EQ(b.lo, 2);
    EXPECT_EQ(b.hi, 9);
    // 50%: P(B <= 3) = 176/1024 <= 0.25 < P(B <= 4) = 386/1024, so k = 4.
    const Interval c = median_ci(iota_values(10), 0.5);
    EXPECT_EQ(c.lo, 4);
    EXPECT_EQ(c.hi, 7);
}

TEST(MedianCi, ClassicTableValueForHundred) {
    const Interval ci = median_ci(iota_values(100));
    EXPECT_EQ(ci.lo, 40);
    EXPECT_EQ(ci.hi, 61);
}

TEST(MedianCi, WholeRangeWhenTooFewSamples) {
    // n = 5: even [x(1), x(5)] covers only 1 - 2/32 = 93.75%.
    const Interval five = median_ci(std::vector<double>{4, 2, 5, 1, 3});
    EXPECT_EQ(five.lo, 1);
    EXPECT_EQ(five.hi, 5);
    const Interval one = median_ci(std::vector<double>{7});
    EXPECT_EQ(one.lo, 7);
    EXPECT_EQ(one.hi, 7);
    const Interval none = median_ci({});
    EXPECT_EQ(none.lo, 0);
    EXPECT_EQ(none.hi, 0);
}

TEST(MedianCi, LargeCountDoesNotUnderflow) {
    const std::size_t n = 5001;  // 2^-n is far below the smallest double
    const Interval ci = median_ci(iota_values(n));
    // Normal approximation: k ~ n/2 - 1.96 sqrt(n)/2 ~ 2431.
    EXPECT_GT(ci.lo, 2420);
    EXPECT_LT(ci.lo, 2440);
    EXPECT_EQ(ci.hi, static_cast<double>(n) + 1 - ci.lo);
}

TEST(MedianCi, RejectsConfidenceOutsideOpenUnitInterval) {
    const std::vector<double> xs{1, 2, 3};
    EXPECT_THROW(median_ci(xs, 0), std::invalid_argument);
    EXPECT_THROW(median_ci(xs, 1), std::invalid_argument);
}

// Coverage sanity on a skewed distribution: n = 20 gives k = 6 and a nominal coverage of
// 1 - 2 P(B <= 5) = 95.86%; 4000 trials estimate it within about +-1%.
TEST(MedianCi, CoverageOfTrueMedianIsNominal) {
    std::mt19937_64 rng(12345);
    std::exponential_distribution<double> dist(1.0);
    const double true_median = std::log(2.0);
    const int trials = 4000;
    int covered = 0;
    std::vector<double> xs(20);
    for (int t = 0; t < trials; ++t) {
        for (double& x : xs) x = dist(rng);
        const Interval ci = median_ci(xs);
        if (ci.lo <= true_median && true_median <= ci.hi) ++covered;
    }
    const double coverage = static_cast<double>(covered) / trials;
    EXPECT_GT(coverage, 0.94);
    EXPECT_LT(coverage, 0.975);
}

}  // namespace
}  // namespace memwall
