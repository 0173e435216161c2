#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "tuner/anova_process.hpp"

namespace memwall {
namespace {

// All configurations of an 8 x 6 x 4 grid.
std::vector<Config> grid() {
    std::vector<Config> g;
    for (std::uint16_t a = 0; a < 8; ++a)
        for (std::uint16_t b = 0; b < 6; ++b)
            for (std::uint16_t c = 0; c < 4; ++c) g.push_back({a, b, c});
    return g;
}

struct Fitted {
    std::vector<Config> measured, unmeasured;
    AnovaProcess process{{8, 6, 4}};
};

// Measures f, with noise of spread `noise`, at a random `share` of the grid.
Fitted fit(double (*f)(const Config&), double share, double noise, std::uint64_t seed) {
    Fitted out;
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution take(share);
    std::normal_distribution<double> error(0.0, noise);
    std::vector<double> y;
    for (const Config& c : grid()) {
        if (take(rng)) {
            out.measured.push_back(c);
            y.push_back(f(c) + error(rng));
        } else {
            out.unmeasured.push_back(c);
        }
    }
    std::vector<const Config*> rows;
    for (const Config& c : out.measured) rows.push_back(&c);
    out.process.fit(rows, y, noise);
    return out;
}

double additive(const Config& c) { return 0.3 * c[0] - 0.05 * (c[1] - 3) * (c[1] - 3) + 0.1 * c[2]; }
double interacting(const Config& c) { return 0.2 * c[0] + 0.1 * c[1] - 0.06 * c[0] * c[1] + 0.1 * (c[2] == 2); }

// Out of sample: how far off the means are, and how often the truth lies outside 3 spreads.
struct Score {
    double worst = 0;
    double outside = 0;  // share
};
Score score(const Fitted& f, double (*truth)(const Config&)) {
    Score s;
    for (const Config& c : f.unmeasured) {
        const Prediction p = f.process.predict(c);
        const double error = std::abs(p.mean - truth(c));
        s.worst = std::max(s.worst, error);
        s.outside += error > 3 * p.sd ? 1.0 : 0.0;
    }
    s.outside /= static_cast<double>(f.unmeasured.size());
    return s;
}

TEST(AnovaProcess, PredictsAnAdditiveFunctionFromAQuarterOfTheGrid) {
    const Fitted f = fit(additive, 0.25, 0.01, 1);
    const Score s = score(f, additive);
    EXPECT_LT(s.worst, 0.1);  // the function spans 2.6
    EXPECT_LT(s.outside, 0.05);
}

TEST(AnovaProcess, LearnsPairwiseInteractions) {
    const Fitted f = fit(interacting, 0.4, 0.01, 2);
    const Score s = score(f, interacting);
    EXPECT_LT(s.worst, 0.2);  // the interaction alone spans 2.1
    EXPECT_LT(s.outside, 0.05);
}

TEST(AnovaProcess, SeesThroughNoiseAndIsSurerWhereItMeasured) {
    const Fitted f = fit(additive, 0.5, 0.05, 3);
    EXPECT_LT(score(f, additive).worst, 0.15);
    // Far less sure at a corner with none of its values' neighbours measured than at a
    // measured configuration.
    AnovaProcess p({8, 6, 4});
    const std::vector<Config> rows{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    std::vector<const Config*> ptrs;
    std::vector<double> y;
    for (const Config& c : rows) {
        ptrs.push_back(&c);
        y.push_back(additive(c));
    }
    p.fit(ptrs, y, 0.01);
    EXPECT_GT(p.predict({7, 5, 3}).sd, 3 * p.predict({1, 0, 0}).sd);
}

// Each main effect has its own amplitude: a parameter that barely matters leaves its unmeasured
// values little doubt, one that matters much leaves its own much. With one amplitude for both
// (as before), the value of c[1] never measured was as unsure as that of c[0].
double strong_and_weak(const Config& c) { return 0.3 * c[0] + 0.005 * c[1] + 0.05 * std::sin(2.0 * c[0]); }

TEST(AnovaProcess, AParameterThatBarelyMattersLeavesItsUnmeasuredValuesLittleDoubt) {
    AnovaProcess p({8, 6, 4});
    std::vector<Config> rows;
    for (std::uint16_t a = 0; a < 7; ++a)      // a = 7 never measured
        for (std::uint16_t b = 0; b < 5; ++b)  // b = 5 never measured
            if ((a + b) % 2 == 0) rows.push_back({a, b, 0});
    std::vector<const Config*> ptrs;
    std::vector<double> y;
    for (const Config& c : rows) {
        ptrs.push_back(&c);
        y.push_back(strong_and_weak(c));
    }
    p.fit(ptrs, y, 0.005);
    const double weak_unmeasured = p.predict({3, 5, 0}).sd, strong_unmeasured = p.predict({7, 2, 0}).sd;
    EXPECT_LT(weak_unmeasured, strong_unmeasured / 2);  // 0.14 against 0.39; with one amplitude, 0.41 against 0.39
    EXPECT_NEAR(p.predict({3, 5, 0}).mean, strong_and_weak({3, 5, 0}), 0.03);
}

TEST(AnovaProcess, ItsChanceBelowALevelIsThatOfItsPrediction) {
    const Fitted f = fit(additive, 0.25, 0.01, 4);
    for (const Config& c : {Config{0, 0, 0}, Config{7, 5, 3}, Config{3, 3, 2}}) {
        const Prediction p = f.process.predict(c);
        for (double z : {-2.0, 0.0, 1.0}) {
            const double level = p.mean + z * p.sd;
            EXPECT_NEAR(f.process.chance_below(c, level), 0.5 * std::erfc(-z / std::numbers::sqrt2), 1e-9);
        }
        EXPECT_EQ(f.process.chance_below(c, p.mean - 100), 0.0);
    }
}

// Joint draws: a configuration given twice is one chance, not two; any set's chance lies between
// its likeliest member's and the sum of all (to the draws' error, about 0.4% here).
TEST(AnovaProcess, ItsChanceThatAnyIsBelowTakesTheirDependenceIntoAccount) {
    const Fitted f = fit(additive, 0.25, 0.01, 5);
    const Config& c = f.unmeasured.front();
    const Prediction p = f.process.predict(c);
    const double level = p.mean - 0.5 * p.sd;
    const std::vector<const Config*> twice{&c, &c};
    const std::vector<double> levels{level, level};
    EXPECT_NEAR(f.process.chance_any_below(twice, levels, 20000, 1), f.process.chance_below(c, level), 0.02);

    std::vector<const Config*> set;
    std::vector<double> set_levels;
    double sum = 0, most = 0;
    for (std::size_t i = 0; i < f.unmeasured.size(); i += 3) {
        const Config& u = f.unmeasured[i];
        const Prediction q = f.process.predict(u);
        set.push_back(&u);
        set_levels.push_back(q.mean - 2.5 * q.sd);
        const double chance = f.process.chance_below(u, set_levels.back());
        sum += chance;
        most = std::max(most, chance);
    }
    ASSERT_GT(sum, 0.05);
    const double any = f.process.chance_any_below(set, set_levels, 20000, 2);
    EXPECT_GE(any, most - 0.02);
    EXPECT_LE(any, sum + 0.02);
    EXPECT_EQ(any, f.process.chance_any_below(set, set_levels, 20000, 2));
    EXPECT_EQ(f.process.chance_any_below({}, {}, 20000, 2), 0.0);
}

}  // namespace
}  // namespace memwall
