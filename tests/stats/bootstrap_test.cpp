#include "stats/bootstrap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace memwall {
namespace {

TEST(PooledMedian, PoolsRepetitions) {
    EXPECT_DOUBLE_EQ(pooled_median({{3, 1}, {2}}), 2);
    EXPECT_DOUBLE_EQ(pooled_median({{4, 1}, {2, 3}}), 2.5);
    EXPECT_DOUBLE_EQ(pooled_median({}), 0);
}

TEST(Bootstrap, IsReproducibleFromItsSeed) {
    const Repetitions a{{1.0, 1.1, 0.9, 1.05, 0.97}}, b{{1.2, 1.3, 1.1, 1.25, 1.18}};
    const RatioInterval x = bootstrap_ratio(a, b, 0.95, 200, 42);
    const RatioInterval y = bootstrap_ratio(a, b, 0.95, 200, 42);
    const RatioInterval z = bootstrap_ratio(a, b, 0.95, 200, 43);
    EXPECT_EQ(x.replicates, y.replicates);
    EXPECT_NE(x.replicates, z.replicates);
    EXPECT_EQ(x.replicates.size(), 200u);
    EXPECT_LE(x.ci.lo, x.ci.hi);
    EXPECT_GT(x.ci.lo, 1.0);
}

TEST(Bootstrap, ZeroVarianceGivesAPointInterval) {
    const RatioInterval r = bootstrap_ratio({{2, 2, 2}}, {{3, 3, 3, 3}}, 0.95, 100, 1);
    EXPECT_DOUBLE_EQ(r.ci.lo, 1.5);
    EXPECT_DOUBLE_EQ(r.ci.hi, 1.5);
}

TEST(Bootstrap, RefusesBadInput) {
    EXPECT_THROW(bootstrap_ratio({}, {{1}}, 0.95, 10, 1), std::invalid_argument);
    EXPECT_THROW(bootstrap_ratio({{}}, {{1}}, 0.95, 10, 1), std::invalid_argument);
    EXPECT_THROW(bootstrap_ratio({{1}}, {{1}}, 1.0, 10, 1), std::invalid_argument);
    EXPECT_THROW(bootstrap_ratio({{1}}, {{1}}, 0.95, 0, 1), std::invalid_argument);
    EXPECT_THROW(bootstrap_ratio_paired({{1}, {2}}, {{1}}, 0.95, 10, 1), std::invalid_argument);
    EXPECT_THROW(bootstrap_ratio_paired({{1}, {}}, {{1}, {2}}, 0.95, 10, 1), std::invalid_argument);
}

// Synthetic timings: each repetition has its own level (the machine's state while it ran),
// lognormal with sd `between`, and samples lognormal with sd `within` around it.
Repetitions timings(std::mt19937_64& rng, double median, int reps, int per_rep, double between, double within) {
    std::normal_distribution<double> z(0, 1);
    Repetitions out;
    for (int r = 0; r < reps; ++r) {
        const double level = median * std::exp(between * z(rng));
        std::vector<double> rep;
        for (int i = 0; i < per_rep; ++i) rep.push_back(level * std::exp(within * z(rng)));
        out.push_back(std::move(rep));
    }
    return out;
}

Repetitions flattened(const Repetitions& r) {
    std::vector<double> all;
    for (const auto& rep : r) all.insert(all.end(), rep.begin(), rep.end());
    return {all};
}

// Fraction of `trials` intervals that contain the true ratio 1.1.
template <class Make>
double coverage(int trials, Make make) {
    std::mt19937_64 rng(2024);
    int covered = 0;
    for (int t = 0; t < trials; ++t) {
        const auto [base, cand] = make(rng);
        const Interval ci = bootstrap_ratio(base, cand, 0.95, 400, static_cast<std::uint64_t>(t)).ci;
        if (ci.lo <= 1.1 && 1.1 <= ci.hi) ++covered;
    }
    return static_cast<double>(covered) / trials;
}

TEST(Bootstrap, CoversTheTrueRatioOfIndependentSamples) {
    const double c = coverage(300, [](std::mt19937_64& rng) {
        return std::pair{timings(rng, 1.0, 1, 40, 0, 0.05), timings(rng, 1.1, 1, 40, 0, 0.05)};
    });
    EXPECT_GE(c, 0.90);
    EXPECT_LE(c, 0.99);
}

TEST(Bootstrap, ResamplingRepetitionsCoversCorrelatedSamples) {
    // Between-repetition noise dominates: resampling repetitions keeps the nominal coverage,
    // while treating all samples as independent makes the interval far too narrow.
    auto make = [](std::mt19937_64& rng) {
        return std::pair{timings(rng, 1.0, 8, 10, 0.03, 0.005), timings(rng, 1.1, 8, 10, 0.03, 0.005)};
    };
    const double hierarchical = coverage(300, make);
    const double naive = coverage(300, [&](std::mt19937_64& rng) {
        auto [b, c] = make(rng);
        return std::pair{flattened(b), flattened(c)};
    });
    EXPECT_GE(hierarchical, 0.85);
    EXPECT_LT(naive, 0.7);
}

// Runs measured together: repetition r of both shares the machine's state then (sd `shared`),
// on top of each repetition's own level (sd `own`); the candidate is 10% slower.
std::pair<Repetitions, Repetitions> paired_timings(std::mt19937_64& rng, int reps, double shared, double own) {
    std::normal_distribution<double> z(0, 1);
    Repetitions base, cand;
    for (int r = 0; r < reps; ++r) {
        const double state = std::exp(shared * z(rng));
        for (auto [side, median] : {std::pair{&base, 1.0}, std::pair{&cand, 1.1}}) {
            const double level = median * state * std::exp(own * z(rng));
            std::vector<double> rep;
            for (int i = 0; i < 10; ++i) rep.push_back(level * std::exp(0.005 * z(rng)));
            side->push_back(std::move(rep));
        }
    }
    return {base, cand};
}

TEST(Bootstrap, PairedResamplingCancelsTheSharedStateAndKeepsCoverage) {
    std::mt19937_64 rng(11);
    int covered = 0, trials = 300;
    double paired_width = 0, unpaired_width = 0;
    for (int t = 0; t < trials; ++t) {
        const auto [base, cand] = paired_timings(rng, 10, 0.06, 0.015);
        const Interval p = bootstrap_ratio_paired(base, cand, 0.95, 400, static_cast<std::uint64_t>(t)).ci;
        const Interval u = bootstrap_ratio(base, cand, 0.95, 400, static_cast<std::uint64_t>(t)).ci;
        covered += p.lo <= 1.1 && 1.1 <= p.hi;
        paired_width += std::log(p.hi / p.lo);
        unpaired_width += std::log(u.hi / u.lo);
    }
    const double c = static_cast<double>(covered) / trials;
    EXPECT_GE(c, 0.85);
    EXPECT_LE(c, 0.99);
    // The shared state is four times the own noise: pairing narrows the interval about that much.
    EXPECT_LT(paired_width, unpaired_width / 2.5);
}

}  // namespace
}  // namespace memwall
