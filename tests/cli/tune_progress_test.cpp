#include "cli/tune_progress.hpp"

#include <gtest/gtest.h>

namespace memwall {
namespace {

TEST(TuneProgress, LineShowsEvaluationsBestAndElapsed) {
    EXPECT_EQ(TuneProgress::line(0, 24, 0, "", "", 0.2, "Br=8,Bc=16", 200),
              "tune 0/24 evaluations  best -  0s  measuring Br=8,Bc=16");
    EXPECT_EQ(TuneProgress::line(7, 24, 41.3e-3, "Br=32,Bc=128", "", 75, "Br=64,Bc=64", 200),
              "tune 7/24 evaluations  best 41.3 ms at Br=32,Bc=128  1m15s  measuring Br=64,Bc=64");
    EXPECT_EQ(TuneProgress::line(3, 0, 2e-6, "Br=16", "predicted (H100 SXM roofline)", 5, "", 200),
              "tune 3 evaluations  best 2 us predicted (H100 SXM roofline) at Br=16  5s");
    EXPECT_EQ(TuneProgress::line(7, 24, 41.3e-3, "Br=32,Bc=128", "", 75, "Br=64,Bc=64", 20).size(), 20u);
}

}  // namespace
}  // namespace memwall
