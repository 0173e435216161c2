// How ceilings are printed: a flagged one says so beside its name and in one line with why;
// reused ones name the run that measured them.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/table.hpp"

namespace memwall::cli {
namespace {

Ceilings measured() {
    Ceilings c;
    c.items = {{"l2", CeilingKind::bandwidth, 80e9, "B/s", "ERT a=a*b+c, 2 threads", 1 << 20},
               {"llc", CeilingKind::bandwidth, 120e9, "B/s", "ERT a=a*b+c, 2 threads", 32 << 20},
               {"fp32_fma", CeilingKind::compute, 2e11, "FLOP/s", "FMA chains", 0}};
    return c;
}

TEST(CeilingsTable, TrustedCeilingsSayNothingMore) {
    std::ostringstream os;
    print_ceilings(os, measured());
    EXPECT_EQ(os.str().find("unreliable"), std::string::npos) << os.str();
    EXPECT_EQ(os.str().find("reused"), std::string::npos) << os.str();
    EXPECT_EQ(unreliable_ceilings_line(measured()), "");
}

TEST(CeilingsTable, FlaggedCeilingsAreMarkedAndExplainedInOneLine) {
    Ceilings c = measured();
    c.items[0].unreliable = "slower than llc (80.0 < 120.0 GB/s), a level outside it";
    c.items[2].unreliable = "measured while the machine was busy: the threads ran 58% of the time";
    const std::string line = unreliable_ceilings_line(c);
    EXPECT_EQ(line,
              "unreliable ceilings (l2: slower than llc (80.0 < 120.0 GB/s), a level outside it; fp32_fma: measured "
              "while the machine was busy: the threads ran 58% of the time): `memwall ceilings` on a quiet machine "
              "measures them again");
    std::ostringstream os;
    print_ceilings(os, c);
    EXPECT_NE(os.str().find("l2 (unreliable)"), std::string::npos) << os.str();
    EXPECT_NE(os.str().find("fp32_fma (unreliable)"), std::string::npos) << os.str();
    EXPECT_EQ(os.str().find("llc (unreliable)"), std::string::npos) << os.str();
    EXPECT_NE(os.str().find(line + "\n"), std::string::npos) << os.str();
}

TEST(CeilingsTable, ReusedCeilingsNameTheRunThatMeasuredThem) {
    Ceilings c = measured();
    c.reused_from_run = 7;
    std::ostringstream os;
    print_ceilings(os, c);
    EXPECT_NE(os.str().find("reused from run 7, which measured them\n"), std::string::npos) << os.str();
    EXPECT_EQ(os.str().find("(reused"), std::string::npos) << os.str();  // the method stays as measured
}

}  // namespace
}  // namespace memwall::cli
