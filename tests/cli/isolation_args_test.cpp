// The isolation summary's figures, never in exponent form.
#include "cli/isolation_args.hpp"

#include <gtest/gtest.h>

namespace memwall::cli {
namespace {

TEST(IsolationArgs, PlainNumbersHaveNoExponent) {
    EXPECT_EQ(plain_number(100, 2), "100");
    EXPECT_EQ(plain_number(0.071, 3), "0.071");
    EXPECT_EQ(plain_number(58.14, 3), "58.1");
    EXPECT_EQ(plain_number(1234.6, 3), "1235");
    EXPECT_EQ(plain_number(0.0213, 2), "0.021");
    EXPECT_EQ(plain_number(0, 2), "0");
}

// All of the time was overhead (a run of cases that took no time of their own): it said
// "0.071 s of overhead (1e+02% of 0.071 s)".
TEST(IsolationArgs, TheSummarySaysAHundredPercentPlainly) {
    IsolationStats s;
    s.cases = 3;
    s.worker_starts = 1;
    s.overhead_seconds = 0.071;
    EXPECT_EQ(isolation_summary(s), "isolation: 3 cases in 1 worker process, 0.071 s of overhead (100% of 0.071 s)");
}

}  // namespace
}  // namespace memwall::cli
