#include "harness/paired_sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace memwall;

namespace {

// The machine's speed, shared by both sides: it changes with every run, whichever side runs.
struct Machine {
    std::vector<double> speed;
    std::size_t runs = 0;
    double next() { return speed[runs++ % speed.size()]; }
};

SamplerSettings settings() {
    SamplerSettings s;
    s.warmup_runs = 1;
    s.min_samples = 10;
    s.min_time = 0.0;
    s.max_noise = 0.01;
    s.timeout = 10;
    return s;
}

}  // namespace

TEST(PairedSampler, AlternatesTheSidesAndKeepsPairsAligned) {
    std::size_t a_calls = 0, b_calls = 0;
    std::mt19937_64 rng(1);
    const PairedSampling s =
        take_paired_samples([&] { return ++a_calls, 1.0; }, [&] { return ++b_calls, 1.1; }, settings(), rng);
    EXPECT_EQ(s.a.seconds.size(), s.b.seconds.size());
    EXPECT_EQ(s.a.seconds.size(), 10u);  // a constant ratio converges at min_samples
    EXPECT_EQ(a_calls, 11u);             // one warm-up each
    EXPECT_EQ(b_calls, 11u);
    EXPECT_EQ(s.a.stop_reason, "converged");
    EXPECT_EQ(s.b.stop_reason, "converged");
}

TEST(PairedSampler, TheRatioConvergesWhileTheMachineDrifts) {
    // Speed steps by ±20% between pairs (each pair shares its step): the samples of each side
    // scatter, their ratio does not, so sampling stops at the minimum.
    Machine m{{1.0, 1.0, 1.2, 1.2, 0.8, 0.8, 1.1, 1.1}};
    std::mt19937_64 rng(2);
    const PairedSampling s =
        take_paired_samples([&] { return 0.01 * m.next(); }, [&] { return 0.0105 * m.next(); }, settings(), rng);
    EXPECT_EQ(s.a.stop_reason, "converged");
    for (std::size_t i = 0; i < s.a.seconds.size(); ++i) EXPECT_NEAR(s.b.seconds[i] / s.a.seconds[i], 1.05, 1e-12);
}

TEST(PairedSampler, NoisyPairsStopAtTheTimeoutOfEitherSide) {
    Machine m{{1.0, 1.3, 0.7, 1.0, 1.25, 0.9}};
    SamplerSettings set = settings();
    set.timeout = 0.5;
    std::mt19937_64 rng(3);
    const PairedSampling s =
        take_paired_samples([&] { return 0.01 * m.next(); }, [&] { return 0.02 * m.next(); }, set, rng);
    EXPECT_EQ(s.b.stop_reason, "time limit");
    double total_b = 0;
    for (double t : s.b.seconds) total_b += t;
    EXPECT_GE(total_b, 0.5);
    EXPECT_LT(total_b, 0.5 + 0.03);
}

TEST(PairedSampler, NeitherSideAlwaysGoesFirst) {
    std::vector<char> order;
    std::mt19937_64 rng(4);
    SamplerSettings set = settings();
    set.warmup_runs = 0;
    set.min_samples = 40;
    take_paired_samples([&] { return order.push_back('a'), 1e-3; }, [&] { return order.push_back('b'), 1e-3; }, set,
                        rng);
    ASSERT_EQ(order.size(), 80u);
    int a_first = 0;
    for (std::size_t i = 0; i < order.size(); i += 2) a_first += order[i] == 'a';
    EXPECT_GT(a_first, 10);
    EXPECT_LT(a_first, 30);
}
