// memwall tune (live on cpu and cuda-emu, and --replay), show --tuning, run --tuned and
// tune-eval, end to end: outputs, what is stored, exit statuses.
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "process.hpp"

using namespace memwall::test;

namespace {

const std::string fixtures = MEMWALL_TEST_DATA "/tuning/";

// The first column of the first row, as text; "" when there is none.
std::string query(const std::filesystem::path& db, const std::string& sql) {
    sqlite3* h = nullptr;
    std::string v;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(h, 2000);
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
            sqlite3_column_text(st, 0))
            v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return v;
}

long long count(const std::filesystem::path& db, const std::string& sql) {
    const std::string v = query(db, sql);
    return v.empty() ? -1 : std::stoll(v);
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// A tiny attention problem, so a configuration is measured in milliseconds.
const std::vector<std::string> tiny = {"--family", "attention",   "--variant", "flash",   "--axis",
                                       "heads=1",  "--axis",      "seq_q=64",  "--axis",  "seq_k=64",
                                       "--axis",   "head_dim=64", "--axis",    "causal=0"};
const std::vector<std::string> quick = {"--warmup", "0", "--min-samples", "3", "--min-time", "0"};

}  // namespace

TEST(CliTune, ReplaysARecordedSpaceAndStoresTheSession) {
    TempDir d;
    const std::vector<std::string> replay = {"tune",       "--replay", fixtures + "pnpoly_RTX_2080Ti_slice.json",
                                             "--strategy", "guided",   "--budget",
                                             "10",         "--seed",   "3"};
    const Result r = run_memwall(with({"--db", "a.db"}, replay), d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("10 configurations evaluated"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("best: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(recorded on"), std::string::npos) << r.out;  // never shown as a measurement here
    // Same seed, same trace.
    EXPECT_EQ(run_memwall(with({"--db", "b.db"}, replay), d.path).out,
              std::string(r.out).replace(r.out.find("a.db"), 4, "b.db"));

    const auto db = d.path / "a.db";
    EXPECT_EQ(query(db, "SELECT backend || ' ' || time_source || ' ' || status FROM tuning_sessions"),
              "replay recorded complete");
    EXPECT_EQ(query(db, "SELECT source_file FROM tuning_sessions"), fixtures + "pnpoly_RTX_2080Ti_slice.json");
    EXPECT_EQ(query(db, "SELECT count(*) FROM tuning_trials"), "10");
    const Result list = run_memwall({"--db", "a.db", "show", "--tuning"}, d.path);
    ASSERT_EQ(list.status, 0) << list.err;
    EXPECT_NE(list.out.find("replay of"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("recorded on"), std::string::npos) << list.out;
}

// A stored session is a recorded space too: replayed, scored, or (from another device) a prior.
TEST(CliTune, ReplaysAStoredSession) {
    TempDir d;
    const std::string pnpoly = fixtures + "pnpoly_RTX_2080Ti_slice.json";
    ASSERT_EQ(run_memwall({"--db", "a.db", "tune", "--replay", pnpoly, "--strategy", "exhaustive"}, d.path).status, 0);
    const Result r =
        run_memwall({"--db", "b.db", "tune", "--replay", "a.db#1", "--strategy", "random", "--budget", "5"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("a.db#1: Pnpoly"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(recorded on NVIDIA GeForce RTX 2080 Ti)"), std::string::npos) << r.out;
    EXPECT_EQ(query(d.path / "b.db", "SELECT source_file FROM tuning_sessions"), "a.db#1");
    const Result eval =
        run_memwall({"--db", "b.db", "tune-eval", "a.db#1", "--strategy", "random", "--seeds", "2"}, d.path);
    ASSERT_EQ(eval.status, 0) << eval.err;
    EXPECT_NE(eval.out.find("a.db#1: Pnpoly on NVIDIA GeForce RTX 2080 Ti"), std::string::npos) << eval.out;

    const Result same = run_memwall({"--db", "b.db", "tune", "--replay", pnpoly, "--prior", "a.db#1"}, d.path);
    EXPECT_EQ(same.status, 2);
    EXPECT_NE(same.err.find("a prior comes from another device"), std::string::npos) << same.err;
    EXPECT_EQ(run_memwall({"--db", "b.db", "tune", "--replay", "a.db#7"}, d.path).err,
              "memwall: error: a.db#7: no tuning session 7 in the database\n");
}

// A KTT recording carries counters, so guided gets its prior from the file itself.
TEST(CliTune, GuidedReplaysWithTheRecordingsCounters) {
    TempDir d;
    const Result r = run_memwall({"--db", "a.db", "tune", "--replay", fixtures + "pnpoly_RTX_2080Ti_slice.json",
                                  "--strategy", "guided", "--budget", "5"},
                                 d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("5 configurations evaluated"), std::string::npos) << r.out;
    EXPECT_EQ(query(d.path / "a.db", "SELECT strategy FROM tuning_sessions"), "guided");
}

TEST(CliTune, MalformedFilesAndBadUsageExit2) {
    TempDir d;
    {
        std::ofstream f(d.path / "bad.json");
        f << "{\"tune_params_keys\": 3";
    }
    const auto before = snapshot(d.path);
    const std::vector<std::string> live = {"tune", "--family", "attention", "--variant", "flash"};
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"tune", "--replay", "bad.json"},
             {"tune", "--replay", "missing.json"},
             {"tune", "--replay", fixtures + "pnpoly_RTX_2080Ti_slice.json", "--strategy", "nope"},
             {"tune", "--replay", fixtures + "pnpoly_RTX_2080Ti_slice.json", "--family", "attention"},
             {"tune-eval", "bad.json"},
             {"tune"},
             {"tune", "--family", "nope", "--variant", "flash"},
             {"tune", "--family", "attention", "--variant", "nope"},
             {"tune", "--family", "attention", "--variant", "naive"},  // no tunable axes
             with(live, {"--strategy", "nope"}),
             with(live, {"--axis", "Br=abc"}),
             with(live, {"--axis", "Br"}),
             with(live, {"--axis", "nope=1"}),
             with(live, {"--axis", "seq_q=1024"}),  // tied to seq_k
             with(live, {"--axis", "seq_q=512,1024", "--axis", "seq_k=512,1024"}),
             with(live, {"--predict-for", "H100"}),  // cpu times are measured
             with(live, {"--backend", "cuda-emu", "--predict-for", "V100"}),
             with(live, {"--backend", "tpu"}),
             with(live, {"--min-samples", "0"}),
             with(live, {"--anchor", "Br=32"}),
             {"run", "--tuned", "--family", "attention", "--variant", "flash", "--axis", "Br=16"},
             {"run", "--predict-for", "A100", "--family", "attention"},
         }) {
        const Result r = run_memwall(args, d.path);
        std::string cmd;
        for (const auto& a : args) cmd += a + " ";
        EXPECT_EQ(r.status, 2) << cmd << "\n" << r.err;
        EXPECT_EQ(lines(r.err).size(), 1u) << cmd << "\n" << r.err;
    }
    EXPECT_EQ(snapshot(d.path), before);  // nothing created
}

TEST(CliTune, LiveOnCpuStoresEveryTrialAndRunTunedUsesTheBest) {
    TempDir d;
    const auto db = d.path / "memwall.db";
    const Result r = run_memwall(with(with(with({"tune"}, tiny), quick),
                                      {"--axis", "Br=8,16", "--axis", "Bc=16,32", "--strategy", "exhaustive"}),
                                 d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("4 valid configurations"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("4 configurations evaluated, stopped by space exhausted"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("best: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("samples beside the anchor)"), std::string::npos) << r.out;  // a median of measured samples
    EXPECT_EQ(query(db,
                    "SELECT backend || ' ' || time_source || ' ' || status || ' ' || stop_reason "
                    "FROM tuning_sessions"),
              "cpu measured complete space exhausted");
    // Every configuration timed beside the default one, whose time alone scales them.
    EXPECT_NE(r.out.find("anchor    Bc=128,Br=128: "), std::string::npos) << r.out;
    EXPECT_EQ(query(db, "SELECT anchor || ' ' || (anchor_seconds > 0) FROM tuning_sessions"),
              "{\"Bc\":128,\"Br\":128} 1");
    EXPECT_EQ(query(db, "SELECT count(*) FROM tuning_trials WHERE status = 'ok'"), "4");
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM tuning_trials t WHERE (SELECT count(*) FROM tuning_trial_samples s "
                    "WHERE s.session_id = t.session_id AND s.idx = t.idx) < 3"),
              "0");
    EXPECT_NE(query(db, "SELECT count(*) FROM tuning_trial_counters WHERE name = 'flops' AND source = 'model'"), "0");
    // The fastest (those within 10% of the best, at least two of them, else none) measured twice more.
    const std::string confirmed = query(db, "SELECT count(*) FROM tuning_trials WHERE measurements = 3");
    EXPECT_EQ(query(db, "SELECT count(*) FROM tuning_trials WHERE measurements NOT IN (1, 3)"), "0");
    EXPECT_NE(confirmed, "1");
    if (confirmed != "0") {
        EXPECT_NE(r.out.find("fastest measured again"), std::string::npos) << r.out;
    }
    const std::string best = query(db, "SELECT config FROM tuning_trials ORDER BY seconds LIMIT 1");
    ASSERT_FALSE(best.empty());

    const Result list = run_memwall({"show", "--tuning"}, d.path);
    ASSERT_EQ(list.status, 0) << list.err;
    EXPECT_NE(list.out.find("attention/flash/cpu"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("4/4"), std::string::npos) << list.out;
    const Result one = run_memwall({"show", "--tuning", "1"}, d.path);
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_NE(one.out.find("Bc=32,Br=16"), std::string::npos) << one.out;
    EXPECT_NE(one.out.find("anchor    Bc=128,Br=128, "), std::string::npos) << one.out;
    EXPECT_EQ(run_memwall({"show", "--tuning", "7"}, d.path).status, 2);

    // run --tuned measures the stored best instead of the default Br=128, Bc=128.
    const std::vector<std::string> run = with(with({"run", "--tuned", "--ceilings", "none", "--quiet"}, tiny), quick);
    const Result tuned = run_memwall(run, d.path);
    ASSERT_EQ(tuned.status, 0) << tuned.err;
    EXPECT_NE(tuned.err.find("tuned: 1 case(s) use their best stored configuration\n"), std::string::npos) << tuned.err;
    EXPECT_EQ(query(db, "SELECT config FROM cases"), best);
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases"), "1");
    EXPECT_EQ(query(db, "SELECT value FROM run_tags WHERE key = 'tuned'"), "H100 SXM");

    // A problem no session tuned keeps the default tunables, and is named.
    std::vector<std::string> other = run;
    other[std::find(other.begin(), other.end(), "seq_q=64") - other.begin()] = "seq_q=32";
    other[std::find(other.begin(), other.end(), "seq_k=64") - other.begin()] = "seq_k=32";
    const Result untuned = run_memwall(other, d.path);
    ASSERT_EQ(untuned.status, 0) << untuned.err;
    EXPECT_NE(untuned.err.find("1 have none stored and keep the default tunables:\n  attention/flash/cpu/"),
              std::string::npos)
        << untuned.err;
    EXPECT_EQ(query(db, "SELECT config FROM cases WHERE problem LIKE '%\"seq_q\":32%'"), "{\"Bc\":128,\"Br\":128}");
}

TEST(CliTune, LiveOnCpuAloneTimesEachConfigurationByItself) {
    TempDir d;
    const Result r =
        run_memwall(with(with(with({"tune"}, tiny), quick),
                         {"--axis", "Br=8,16", "--axis", "Bc=16", "--strategy", "exhaustive", "--anchor", "none"}),
                    d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("time      median of the samples, measured here"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("anchor "), std::string::npos) << r.out;
    EXPECT_EQ(query(d.path / "memwall.db", "SELECT anchor || ' ' || typeof(anchor_seconds) FROM tuning_sessions"),
              " null");
}

TEST(CliTune, LiveOnCudaEmuShowsAndStoresPredictedTimes) {
    TempDir d;
    const Result r = run_memwall(
        {"tune",        "--family", "attention", "--variant",  "flash",      "--backend", "cuda-emu", "--predict-for",
         "a100",        "--axis",   "heads=1",   "--axis",     "seq_q=32",   "--axis",    "seq_k=32", "--axis",
         "head_dim=64", "--axis",   "causal=0",  "--axis",     "dtype=fp32", "--axis",    "Br=16,32", "--axis",
         "Bc=16",       "--axis",   "warps=1",   "--strategy", "random"},
        d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("time: predicted (A100 SXM4 80GB roofline)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("predicted (A100 SXM4 80GB roofline), from emu counters"), std::string::npos) << r.out;
    const auto db = d.path / "memwall.db";
    EXPECT_EQ(query(db, "SELECT device || ' ' || backend || ' ' || time_source FROM tuning_sessions"),
              "A100 SXM4 80GB cuda-emu predicted");
    EXPECT_EQ(query(db, "SELECT count(*) FROM tuning_trials WHERE status = 'ok'"), "2");
    EXPECT_EQ(query(db, "SELECT count(*) FROM tuning_trial_samples"), "0");  // no emulated time stored
    EXPECT_EQ(query(db, "SELECT anchor || ' ' || typeof(anchor_seconds) FROM tuning_sessions"),
              " null");  // nothing timed
    EXPECT_EQ(query(db, "SELECT source FROM tuning_trial_counters WHERE name = 'dram__bytes_read.sum'"), "emu");
    const Result list = run_memwall({"show", "--tuning"}, d.path);
    EXPECT_NE(list.out.find("predicted (A100 SXM4 80GB roofline)"), std::string::npos) << list.out;
}

TEST(CliTune, CtrlCStopsAfterTheTrialInFlightAndMarksTheSession) {
    TempDir d;
    const auto db = d.path / "memwall.db";
    // 80 configurations, each sampled for 0.2 s: far longer than the test waits.
    const pid_t pid = spawn_memwall(
        with({"tune"}, {"--family",    "attention", "--variant",  "flash",      "--axis",     "heads=1",
                        "--axis",      "seq_q=64",  "--axis",     "seq_k=64",   "--axis",     "head_dim=64",
                        "--axis",      "causal=0",  "--strategy", "exhaustive", "--min-time", "0.2",
                        "--max-noise", "1e-9",      "--timeout",  "0.2"}),
        d.path);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline && count(db, "SELECT count(*) FROM tuning_trials") < 2)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(kill(pid, SIGINT), 0);
    int st = 0;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 130);
    EXPECT_EQ(query(db, "SELECT status || ' ' || stop_reason FROM tuning_sessions"), "interrupted interrupted");
    const long long n = count(db, "SELECT count(*) FROM tuning_trials");
    EXPECT_GE(n, 2);
    EXPECT_LT(n, 80);
}

TEST(CliTune, TuneEvalPrintsAndStoresTheScoreTable) {
    TempDir d;
    const Result r = run_memwall({"tune-eval", fixtures + "pnpoly_RTX_2080Ti_slice.json", "--seeds", "5"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s : {"guided", "anneal", "genetic", "exhaustive", "random*", "mean score"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    EXPECT_NE(r.out.find("stored as tune-eval 1 in memwall.db"), std::string::npos) << r.out;
    const auto db = d.path / "memwall.db";
    EXPECT_EQ(query(db, "SELECT seeds FROM tune_evals"), "5");
    EXPECT_EQ(query(db, "SELECT space FROM tune_eval_spaces"), "pnpoly_RTX_2080Ti_slice.json");
    EXPECT_GE(count(db, "SELECT count(DISTINCT strategy) FROM tune_eval_scores"), 5);  // every strategy
}
