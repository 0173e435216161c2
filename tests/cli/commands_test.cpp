// The happy paths of every command, on a tiny sweep.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "process.hpp"

using namespace memwall::test;
using nlohmann::json;

namespace {
// Two samples per case, whatever the noise: a loaded machine must not stop a case at the timeout
// with fewer (the timeout wins over --min-samples).
std::vector<std::string> tiny(std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"--db",          "t.db",   "run",        "--family",   "attention",   "--axis",
                                  "heads=1",       "--axis", "seq_q=40",   "--axis",     "seq_k=72",    "--axis",
                                  "head_dim=64",   "--axis", "causal=0,1", "--ceilings", "none",        "--quiet",
                                  "--min-samples", "2",      "--min-time", "0",          "--max-noise", "1",
                                  "--timeout",     "2"};
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
    const Result r = run_memwall(tiny({"--variant", "naive,flash"}), d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("GFLOP/s"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("attention/flash/cpu"), std::string::npos) << r.out;

    const Result runs = run_memwall({"--db", "t.db", "show"}, d.path);
    ASSERT_EQ(runs.status, 0) << runs.err;
    EXPECT_NE(runs.out.find("complete"), std::string::npos) << runs.out;
    const Result one = run_memwall({"--db", "t.db", "show", "latest"}, d.path);
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_NE(one.out.find("attention/naive/cpu"), std::string::npos) << one.out;
    EXPECT_NE(one.out.find("\ndevice\n  cpu       "), std::string::npos) << one.out;

    const Result j = run_memwall({"--db", "t.db", "export", "--format", "json"}, d.path);
    ASSERT_EQ(j.status, 0) << j.err;
    const json doc = json::parse(j.out);
    const json& properties = doc.at("run").at("properties");
    EXPECT_FALSE(properties.at("cpu.model").get<std::string>().empty());
    EXPECT_GT(std::stoll(properties.at("cpu.l1_bytes").get<std::string>()), 0);
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
    const Result bmf = run_memwall({"--db", "t.db", "export", "--format", "bmf"}, d.path);
    ASSERT_EQ(bmf.status, 0) << bmf.err;
    EXPECT_EQ(json::parse(bmf.out).size(), 4u);
    // T4 is a tuning session's format: asked of a run, it is refused with one line.
    const Result t4 = run_memwall({"--db", "t.db", "export", "--format", "t4"}, d.path);
    EXPECT_EQ(t4.status, 2) << t4.err;
    EXPECT_NE(t4.err.find("--tuning"), std::string::npos) << t4.err;
}

// A cuda-emu run records the emulated device, labelled as emulation, with its L2 model.
// A matrix path with byte 0xFF (a path is bytes): measured, stored and resumed as any other; it
// ended the run with nlohmann's "invalid UTF-8" (exit 3).
TEST(Commands, AMatrixPathThatIsNotUtf8IsMeasuredAndResumed) {
    TempDir d;
    const std::string name = "ring\xff.mtx";
    std::filesystem::copy_file(std::string(MEMWALL_TEST_DATA) + "/matrix-market/ring-chords-64.mtx", d.path / name);
    const std::vector<std::string> run = {
        "--db",           "t.db",       "run",       "--family", "spgemm",        "--variant", "esc",        "--axis",
        "matrix=" + name, "--ceilings", "none",      "--quiet",  "--min-samples", "2",         "--min-time", "0",
        "--max-noise",    "1",          "--timeout", "2"};
    const Result r = run_memwall(run, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(name), std::string::npos) << r.out;
    const Result again = run_memwall({"--db", "t.db", "run", "--resume", "--quiet"}, d.path);
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.out.find("0 cases measured"), std::string::npos) << again.out;
}

// A run begun with --ceilings none resumes without measuring any: measuring them took minutes
// on hosts with a large last-level cache, for a resume with nothing left to measure.
TEST(Commands, ARunWithoutCeilingsResumesWithoutThem) {
    TempDir d;
    ASSERT_EQ(run_memwall(tiny({"--variant", "naive"}), d.path).status, 0);
    const Result again = run_memwall({"--db", "t.db", "run", "--resume", "--quiet"}, d.path);
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(again.err.find("ceiling"), std::string::npos) << again.err;
    const Result levels = run_memwall({"--db", "t.db", "show", "latest", "--levels"}, d.path);
    EXPECT_NE(levels.out.find("no ceilings stored"), std::string::npos) << levels.out;
    const Result one = run_memwall({"--db", "t.db", "show", "latest"}, d.path);
    EXPECT_NE(one.out.find("tag       ceilings=none"), std::string::npos) << one.out;
}

TEST(Commands, CudaEmuRunRecordsTheEmulatedDevice) {
    TempDir d;
    const Result r = run_memwall(tiny({"--backend", "cuda-emu", "--variant", "flash", "--axis", "dtype=bf16", "--axis",
                                       "Br=16", "--axis", "Bc=16", "--axis", "warps=1"}),
                                 d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    const Result one = run_memwall({"--db", "t.db", "show", "latest"}, d.path);
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_NE(one.out.find("\ndevice\n  cuda-emu  emulation, no GPU"), std::string::npos) << one.out;
    const Result j = run_memwall({"--db", "t.db", "export", "--format", "json"}, d.path);
    ASSERT_EQ(j.status, 0) << j.err;
    const json doc = json::parse(j.out);
    const json& properties = doc.at("run").at("properties");
    EXPECT_EQ(properties.at("cuda-emu.kind"), "emulation");
    EXPECT_EQ(properties.at("cuda-emu.l2_model_bytes"), std::to_string(50 << 20));
    EXPECT_EQ(properties.count("cpu.model"), 0u);  // not a backend of this run
    ASSERT_EQ(doc.at("cases").size(), 2u);         // causal 0/1
    for (const auto& c : doc.at("cases")) {
        EXPECT_EQ(c.at("status"), "ok");
        EXPECT_EQ(c.at("problem").at("dtype"), "bf16");
    }
}

TEST(Commands, GoogleBenchmarkFlagsKeepWorking) {
    TempDir d;
    const Result r = run_memwall(tiny({"--benchmark_filter=/flash/", "--benchmark_repetitions=2"}), d.path);
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

TEST(Commands, CeilingsAreStoredAsARunWithNothingToResume) {
    TempDir d;
    const Result c = run_memwall({"--db", "t.db", "ceilings"}, d.path);
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_NE(c.out.find("stored as run 1"), std::string::npos) << c.out;
    const Result r = run_memwall({"--db", "t.db", "run", "--resume"}, d.path);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.err.find("run 1 has no sweep to resume"), std::string::npos) << r.err;
}

TEST(Commands, ShowLevelsListsEveryLevelWithItsSource) {
    TempDir d;
    ASSERT_EQ(run_memwall(tiny({"--variant", "naive"}), d.path).status, 0);
    const Result r = run_memwall({"--db", "t.db", "show", "latest", "--levels"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s : {"level", "bytes from", "dram", "l1", "model", "bytes.dram"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
    const Result bad = run_memwall({"--db", "t.db", "show", "--levels"}, d.path);
    EXPECT_EQ(bad.status, 2);
}

// metrics without a GPU: the chips, and a metric list's replay passes (CUPTI's host API).
TEST(Commands, MetricsChecksAListOffline) {
    TempDir d;
    const Result chips = run_memwall({"metrics"}, d.path);
    if (chips.status != 0) GTEST_SKIP() << "CUPTI unavailable here: " << chips.err;
    EXPECT_NE(chips.out.find("GH100"), std::string::npos) << chips.out;
    const Result r =
        run_memwall({"metrics", "--chip", "GH100", "--metrics", "dram__bytes_read.sum,lts__t_bytes.sum"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("2 metrics in 1 replay pass"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("# of bytes read from DRAM"), std::string::npos) << r.out;
    const Result defaults = run_memwall({"metrics", "--chip", "GH100"}, d.path);
    ASSERT_EQ(defaults.status, 0) << defaults.err;
    EXPECT_NE(defaults.out.find("6 metrics in 2 replay passes"), std::string::npos) << defaults.out;
    EXPECT_TRUE(snapshot(d.path).empty());  // metrics touches no database
}
