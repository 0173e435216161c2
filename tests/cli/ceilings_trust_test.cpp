// Ceilings' trust and provenance end to end: `run --ceilings reuse` copies the measured ones
// with their method unchanged, and `show` and `run` say when the ceilings are flagged.
#include <gtest/gtest.h>

#include "process.hpp"
#include "results/store.hpp"

using namespace memwall::test;
using memwall::CeilingKind;
using memwall::Ceilings;
using memwall::Store;

namespace {

std::vector<std::string> tiny(const std::string& ceilings) {
    return {"--db",      "t.db",    "run",           "--family", "attention",  "--variant", "naive",       "--axis",
            "heads=1",   "--axis",  "seq_q=40",      "--axis",   "seq_k=72",   "--axis",    "head_dim=64", "--ceilings",
            ceilings,    "--quiet", "--min-samples", "2",        "--min-time", "0",         "--max-noise", "1",
            "--timeout", "2"};
}

Ceilings given(const std::string& busy_reason = "") {
    Ceilings c;
    c.items = {{"l2", CeilingKind::bandwidth, 80e9, "B/s", "ERT a=a*b+c, 2 threads", 1 << 20, busy_reason},
               {"dram", CeilingKind::bandwidth, 20e9, "B/s", "ERT a=a*b+c, 2 threads", 0},
               {"fp32_fma", CeilingKind::compute, 2e11, "FLOP/s", "FMA chains", 0}};
    return c;
}

}  // namespace

TEST(CliCeilingsTrust, ReuseCopiesTheMeasuredCeilingsAndFlagsAreShown) {
    TempDir d;
    ASSERT_EQ(run_memwall(tiny("none"), d.path).status, 0);
    {
        Store s = Store::open((d.path / "t.db").string(), Store::Mode::read_write);
        s.save_ceilings(1, given());  // as if run 1 had measured them on this host
    }
    for (int run = 2; run <= 3; ++run) {
        const Result r = run_memwall(tiny("reuse"), d.path);
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.out.find("unreliable"), std::string::npos) << r.out;
    }
    // Run 3 copied run 1's ceilings, not run 2's copy, and the method is as measured.
    const Result shown = run_memwall({"--db", "t.db", "show", "3"}, d.path);
    ASSERT_EQ(shown.status, 0) << shown.err;
    EXPECT_NE(shown.out.find("reused from run 1, which measured them"), std::string::npos) << shown.out;
    EXPECT_EQ(shown.out.find("(reused from"), std::string::npos) << shown.out;

    // Flagged ceilings of a run: `show` and `run` (resumed) each say so in one line.
    {
        Store s = Store::open((d.path / "t.db").string(), Store::Mode::read_write);
        s.save_ceilings(1, given("measured while the machine was busy: the threads ran 58% of the time"));
    }
    const Result flagged = run_memwall({"--db", "t.db", "show", "1"}, d.path);
    ASSERT_EQ(flagged.status, 0) << flagged.err;
    EXPECT_NE(flagged.out.find("l2 (unreliable)"), std::string::npos) << flagged.out;
    EXPECT_NE(flagged.out.find("unreliable ceilings (l2: measured while the machine was busy: the threads ran 58% of "
                               "the time)"),
              std::string::npos)
        << flagged.out;
    const Result resumed = run_memwall({"--db", "t.db", "run", "--resume", "1", "--quiet"}, d.path);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.out.find("unreliable ceilings (l2: "), std::string::npos) << resumed.out;
}
