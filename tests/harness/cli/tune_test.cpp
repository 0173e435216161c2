// memwall tune --replay and tune-eval on the recorded-space fixtures.
#include <fstream>

#include <gtest/gtest.h>

#include "process.hpp"

using namespace memwall::test;

namespace {
const std::string fixtures = MEMWALL_TEST_DATA "/tuning/";
}

TEST(CliTune, ReplaysARecordedSpace) {
    TempDir d;
    const Result r = run_memwall({"tune", "--replay", fixtures + "pnpoly_RTX_2080Ti_slice.json", "--strategy", "guided",
                                  "--budget", "10", "--seed", "3"},
                                 d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("10 evaluations"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("best: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(recorded on"), std::string::npos) << r.out;  // never shown as a measurement here
    // Same seed, same trace.
    EXPECT_EQ(run_memwall({"tune", "--replay", fixtures + "pnpoly_RTX_2080Ti_slice.json", "--strategy", "guided",
                           "--budget", "10", "--seed", "3"},
                          d.path)
                  .out,
              r.out);
}

TEST(CliTune, MalformedFilesAndBadUsageExit2) {
    TempDir d;
    {
        std::ofstream f(d.path / "bad.json");
        f << "{\"tune_params_keys\": 3";
    }
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"tune", "--replay", "bad.json"},
             {"tune", "--replay", "missing.json"},
             {"tune", "--replay", fixtures + "pnpoly_RTX_2080Ti_slice.json", "--strategy", "nope"},
             {"tune-eval", "bad.json"}}) {
        const Result r = run_memwall(args, d.path);
        EXPECT_EQ(r.status, 2) << args[2];
        EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    }
}

TEST(CliTune, TuneEvalPrintsTheScoreTable) {
    TempDir d;
    const Result r = run_memwall({"tune-eval", fixtures + "pnpoly_RTX_2080Ti_slice.json", "--seeds", "5"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s : {"guided", "anneal", "genetic", "exhaustive", "random*", "mean score"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
}
