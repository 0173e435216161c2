// The happy paths of every command, on a tiny sweep.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "process.hpp"

using namespace memwall::test;
using nlohmann::json;

namespace {
std::vector<std::string> tiny(std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"--db", "t.db", "run", "--family", "attention", "--axis", "heads=1", "--axis",
                                  "seq_q=40", "--axis", "seq_k=72", "--axis", "head_dim=64", "--axis", "causal=0,1",
                                  "--ceilings", "none", "--quiet", "--min-samples", "2", "--min-time", "0",
                                  "--timeout", "0.05"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}
}  // namespace

TEST(Commands, ListShowsFamiliesVariantsAndBackends) {
    TempDir d;
    const Result r = run_memwall({"list"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s : {"attention", "naive", "flash", "seq_q", "head_dim", "cpu", "cuda", "cuda-emu", "perf_event"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    EXPECT_TRUE(snapshot(d.path).empty());  // list touches no database
}

TEST(Commands, RunShowExport) {
    TempDir d;
    const Result r = run_memwall(tiny(), d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("GFLOP/s"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("attention/flash/cpu"), std::string::npos) << r.out;

    const Result runs = run_memwall({"--db", "t.db", "show"}, d.path);
    ASSERT_EQ(runs.status, 0) << runs.err;
    EXPECT_NE(runs.out.find("complete"), std::string::npos) << runs.out;
    const Result one = run_memwall({"--db", "t.db", "show", "latest"}, d.path);
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_NE(one.out.find("attention/naive/cpu"), std::string::npos) << one.out;

    const Result j = run_memwall({"--db", "t.db", "export", "--format", "json"}, d.path);
    ASSERT_EQ(j.status, 0) << j.err;
    const json doc = json::parse(j.out);
    ASSERT_EQ(doc.at("cases").size(), 4u);  // 2 variants x causal 0/1
    for (const auto& c : doc.at("cases")) {
        EXPECT_EQ(c.at("status"), "ok");
        EXPECT_GE(c.at("summary").at("n").get<int>(), 2);
    }
    const Result csv = run_memwall({"--db", "t.db", "export", "--format", "csv"}, d.path);
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_EQ(lines(csv.out).size(), 5u);
    const Result gb = run_memwall({"--db", "t.db", "export", "--format", "gbench", "--out", "gb.json"}, d.path);
    ASSERT_EQ(gb.status, 0) << gb.err;
    EXPECT_TRUE(std::filesystem::exists(d.path / "gb.json"));
}

TEST(Commands, GoogleBenchmarkFlagsKeepWorking) {
    TempDir d;
    const Result r = run_memwall(tiny({"--benchmark_filter=flash", "--benchmark_repetitions=2"}), d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    const json doc = json::parse(run_memwall({"--db", "t.db", "export"}, d.path).out);
    ASSERT_EQ(doc.at("cases").size(), 2u);
    for (const auto& c : doc.at("cases")) {
        EXPECT_EQ(c.at("variant"), "flash");
        EXPECT_EQ(c.at("samples").size(), 2u);  // one sample list per repetition
    }
    const Result js = run_memwall(tiny({"--benchmark_format=json", "--benchmark_filter=naive"}), d.path);
    ASSERT_EQ(js.status, 0) << js.err;
    const json gb = json::parse(js.out);
    EXPECT_EQ(gb.at("benchmarks").size(), 2u);
}
