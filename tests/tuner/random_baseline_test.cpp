#include "tuner/random_baseline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tuner/replay.hpp"
#include "tuner/score.hpp"
#include "tuner/strategy.hpp"

namespace memwall {
namespace {

// E[min of m draws without replacement] by enumerating every subset.
double brute_force_expected_best(const std::vector<double>& v, std::size_t m) {
    const std::size_t n = v.size();
    double sum = 0;
    std::size_t subsets = 0;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        if (static_cast<std::size_t>(__builtin_popcount(mask)) != m) continue;
        double best = 1e300;
        for (std::size_t i = 0; i < n; ++i)
            if (mask & (1u << i)) best = std::min(best, v[i]);
        sum += best;
        ++subsets;
    }
    return sum / static_cast<double>(subsets);
}

TEST(RandomBaseline, IsExact) {
    const std::vector<double> v{5, 3, 9, 3, 7, 1, 8, 6, 2, 4};  // ties included
    const RandomBaseline b(v);
    for (std::size_t m = 1; m <= v.size(); ++m)
        EXPECT_NEAR(b.expected_best(m), brute_force_expected_best(v, m), 1e-12) << m;
    EXPECT_NEAR(b.expected_best(1), 4.8, 1e-12);  // the mean
    EXPECT_EQ(b.expected_best(v.size()), 1.0);    // the optimum
    EXPECT_EQ(b.curve(3).size(), 3u);
}

TEST(RandomBaseline, BudgetIsWhereRandomSearchGets95PercentOfTheWayFromTheMedian) {
    std::vector<double> v(100);
    std::iota(v.begin(), v.end(), 1.0);  // E[best of m] = 101 / (m + 1)
    const RandomBaseline b(v);
    EXPECT_DOUBLE_EQ(b.median(), 50.5);
    // target 1 + 0.05 * 49.5 = 3.475: 101 / (m + 1) <= 3.475 from m = 29
    EXPECT_EQ(b.budget(0.95), 29u);
    EXPECT_EQ(b.draws_to_reach(1.0), 100u);
    EXPECT_DOUBLE_EQ(b.expected_draws_to(10.0), 101.0 / 11.0);
}

TEST(RandomBaseline, CountsFailuresAsTheSlowestValidTime) {
    const RecordedSpace rs =
        load_recorded_space(std::string(MEMWALL_TEST_DATA) + "/tuning/pnpoly_RTX_2080Ti_slice.json");
    const RandomBaseline b(rs);
    EXPECT_EQ(b.size(), 24u);  // 12 ok, 12 failed
    double worst = 0;
    for (const auto& e : rs.results)
        if (e.ok()) worst = std::max(worst, e.seconds);
    EXPECT_EQ(b.worst(), worst);
    EXPECT_EQ(b.optimum(), rs.optimum_seconds());
    // the first draw fails half of the time
    double mean = 0;
    for (const auto& e : rs.results) mean += e.ok() ? e.seconds : worst;
    EXPECT_NEAR(b.expected_best(1), mean / 24, 1e-15);
}

// The acceptance check of the exact baseline: random search replayed many times over a recorded
// space agrees with it within 1% at every evaluation of the budget, and scores 0.
TEST(RandomBaseline, AgreesWithSimulatedRandomSearch) {
    const RecordedSpace rs =
        load_recorded_space(std::string(MEMWALL_TEST_DATA) + "/tuning/convolution_milo_A4000_slice_error_key.json");
    const RandomBaseline b(rs);
    const std::size_t budget = b.budget();
    ASSERT_GE(budget, 5u);
    constexpr std::size_t kRuns = 20000;
    std::vector<double> mean(budget, 0.0);
    for (std::uint64_t seed = 1; seed <= kRuns; ++seed) {
        ReplayObjective objective(rs);
        auto s = make_strategy("random", rs.space, seed);
        const auto curve = best_so_far(tune(objective, *s, Budget{budget, 0, 0}), budget, b.worst());
        for (std::size_t t = 0; t < budget; ++t) mean[t] += curve[t] / kRuns;
    }
    for (std::size_t t = 0; t < budget; ++t)
        EXPECT_NEAR(mean[t] / b.expected_best(t + 1), 1.0, 0.01) << "m = " << t + 1;
    EXPECT_NEAR(willemsen_score(mean, b), 0.0, 0.02);
}

}  // namespace
}  // namespace memwall
