#include "harness/progress.hpp"

#include <gtest/gtest.h>

using memwall::Progress;

TEST(Progress, FormatsDurations) {
    EXPECT_EQ(Progress::format_duration(0.4), "0s");
    EXPECT_EQ(Progress::format_duration(42), "42s");
    EXPECT_EQ(Progress::format_duration(65), "1m05s");
    EXPECT_EQ(Progress::format_duration(3725), "1h02m");
}

TEST(Progress, LineShowsCountEtaAndLabel) {
    EXPECT_EQ(Progress::line(0, 4, 0, "a/b", 200), "[........................] 0/4  ETA ?  a/b");
    // 1 of 4 done in 10 s: 30 s to go.
    EXPECT_EQ(Progress::line(1, 4, 10, "a/b", 200), "[######..................] 1/4  ETA 30s  a/b");
    EXPECT_EQ(Progress::line(1, 4, 10, "a/b", 10).size(), 10u);
}
