// What `memwall tune` prints of its stopping rule: the chance is a bound, and one at 100% is
// said to rule nothing out rather than printed as a certainty.
#include "cli/tuning_output.hpp"

#include <gtest/gtest.h>

namespace memwall::cli {
namespace {

TEST(TuningOutput, PercentKeepsADecimalBelowTen) {
    EXPECT_EQ(percent(0.041), "4.1%");
    EXPECT_EQ(percent(0.82), "82%");
}

TEST(TuningOutput, TheStoppingRulesBoundIsSaidAsABound) {
    EXPECT_EQ(stopping_rule_line(30, 0.038, 0.04, 0.05),
              "stopping rule: after 30 evaluations, the chance of an unmeasured configuration more than 4.0% "
              "faster than the best is at most 3.8% (stops below 5.0%)");
    EXPECT_EQ(stopping_rule_line(24, 1.0, 0.028, 0.05),
              "stopping rule: after 24 evaluations, the model cannot yet rule out an unmeasured configuration "
              "more than 2.8% faster than the best (stops below 5.0%)");
}

}  // namespace
}  // namespace memwall::cli
