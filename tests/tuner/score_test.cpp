#include "tuner/score.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace memwall {
namespace {

RandomBaseline one_to_hundred() {
    std::vector<double> v(100);
    std::iota(v.begin(), v.end(), 1.0);
    return RandomBaseline(v);
}

TEST(Score, RandomSearchScoresZeroAndTheOptimumOne) {
    const RandomBaseline b = one_to_hundred();
    const auto random = b.curve(29);
    EXPECT_NEAR(willemsen_score(random, b), 0.0, 1e-12);
    const std::vector<double> optimal(29, 1.0);
    EXPECT_NEAR(willemsen_score(optimal, b), 1.0, 1e-12);
}

TEST(Score, IsTheMeanOfTheStandardisedCurve) {
    const RandomBaseline b = one_to_hundred();
    // best(1) = 50.5 (random), best(2) = 1 (optimum): (0 + 1) / 2
    EXPECT_NEAR(willemsen_score(std::vector<double>{50.5, 1.0}, b), 0.5, 1e-12);
    // slower than random search is negative
    EXPECT_LT(willemsen_score(std::vector<double>{100.0, 100.0}, b), 0.0);
}

TEST(Score, BestSoFarCountsFailuresAsWorstAndHoldsAfterTheTraceEnds) {
    Trace t;
    TraceEntry failed;
    failed.evaluation.status = EvalStatus::compile_failed;
    t.entries.push_back(failed);
    TraceEntry ok;
    ok.best_seconds = 3.0;
    t.entries.push_back(ok);
    EXPECT_EQ(best_so_far(t, 4, 9.0), (std::vector<double>{9.0, 3.0, 3.0, 3.0}));
}

}  // namespace
}  // namespace memwall
