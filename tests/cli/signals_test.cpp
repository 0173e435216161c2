// Interrupts end every command the same way (docs/reliability.md, "Interrupts"): SIGINT, SIGTERM
// or SIGHUP, to memwall or to its whole process group, store what is complete and end with 130;
// the case or trial in flight is never stored as a failure, so `run --resume` measures it. Each
// test sends its signal once the first case is stored, so it lands while a case is measured.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "attention_sweep.hpp"
#include "db_query.hpp"
#include "process.hpp"

using namespace memwall::test;

namespace {

// Waits (bounded, for a loaded 2-core machine) until `sql` counts at least `n`; false if the
// process ended or the time ran out first.
bool wait_until(const std::filesystem::path& db, const char* sql, long long n, pid_t pid, double seconds = 120) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        if (std::filesystem::exists(db) && query(db, sql) >= n) return true;
        if (kill(pid, 0) != 0) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

const char* kCases = "SELECT count(*) FROM cases";
const char* kNotOk = "SELECT count(*) FROM cases WHERE status != 'ok'";
const char* kDistinct = "SELECT count(*) FROM (SELECT DISTINCT family, variant, backend, problem, config FROM cases)";

// 2 variants x 8 sequence lengths; each case samples for ~0.1 s per repetition.
std::vector<std::string> sweep(std::vector<std::string> extra = {}) {
    std::vector<std::string> a = attention_sweep("256", "0.1");
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}
constexpr long long kSweepCases = 16;

// `ci` of the same 16 cases as a suite of 3 repetitions, measured case after case, written to
// `dir`; `baseline` says against what.
std::vector<std::string> tiny_ci(const std::filesystem::path& dir, const std::vector<std::string>& baseline) {
    std::ofstream(dir / "tiny.json") << R"({"name": "tiny", "families": ["attention"], "variants": ["naive", "flash"],
        "axes": ["heads=2", "seq_q=32:256:32", "seq_k=32:256:32", "head_dim=64", "causal=0"],
        "sampler": {"warmup_runs": 0, "min_samples": 1, "min_time": 0.05, "max_noise": 1e-9, "timeout": 0.05},
        "repetitions": 3, "interleave": false})";
    std::vector<std::string> a = {"--db", "s.db", "ci", "--suite", "tiny.json", "--ceilings", "none", "--quiet"};
    a.insert(a.end(), baseline.begin(), baseline.end());
    return a;
}

// Starts `args` in a group of its own, signals the group once a case is stored, returns the output.
Result interrupted(const std::vector<std::string>& args, const std::filesystem::path& dir, int sig,
                   const char* stored = kCases) {
    const pid_t pid = spawn_group(MEMWALL_BINARY, args, dir);
    const bool reached = wait_until(dir / "s.db", stored, 1, pid);
    kill(-pid, sig);
    const Result r = output_of(dir, wait_bounded(pid, 120));
    EXPECT_TRUE(reached) << r.err;
    return r;
}

// Whatever was interrupted, the resume measures the rest: every case once, all ok.
void expect_resumes(const std::filesystem::path& dir, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--db", "s.db", "run", "--resume", "--quiet", "--ceilings", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = run_memwall(args, dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(query(dir / "s.db", kCases), kSweepCases);
    EXPECT_EQ(query(dir / "s.db", kDistinct), kSweepCases);
    EXPECT_EQ(query(dir / "s.db", kNotOk), 0);
}

// ci --baseline-build: SIGTERM to the group kills both builds' workers with the coordinator
// (SIGINT leaves them to finish the pair in flight). Every pair completed is kept in both runs,
// both read `interrupted`; neither is resumed alone (its cases would lose their pairs), and the
// same command measures both builds anew.
void expect_baseline_build_interrupted(int sig) {
    SCOPED_TRACE("signal " + std::to_string(sig));
    TempDir d;
    const std::vector<std::string> ci = tiny_ci(d.path, {"--baseline-build", MEMWALL_BINARY});
    const Result r = interrupted(ci, d.path, sig, "SELECT count(*) >= 3 FROM cases WHERE run_id = 2");
    const auto db = d.path / "s.db";
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_NE(r.err.find("memwall: interrupted; runs 1 and 2 are incomplete and were not compared"), std::string::npos)
        << r.err;
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 2);
    // The same pairs on both sides, none failed; cases are measured one after the other, so only
    // the last can lack repetitions.
    const long long kept = query(db, "SELECT count(*) FROM cases WHERE run_id = 2");
    EXPECT_GE(kept, 3);
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases WHERE run_id = 1"), kept);
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM cases b JOIN cases c ON b.run_id = 1 AND c.run_id = 2 AND b.variant = "
                    "c.variant AND b.problem = c.problem AND b.n_samples = c.n_samples"),
              kept);
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases WHERE status != 'ok'"), 0) << r.err;
    EXPECT_LE(query(db,
                    "SELECT count(*) FROM cases c WHERE run_id = 2 AND (SELECT count(DISTINCT rep) FROM samples s "
                    "WHERE s.case_id = c.id) != 3"),
              1);

    const long long samples = query(db, "SELECT count(*) FROM samples");
    for (const char* run : {"1", "2"}) {
        const Result resumed = run_memwall({"--db", "s.db", "run", "--resume", run, "--quiet"}, d.path);
        EXPECT_EQ(resumed.status, 2) << resumed.err;
        EXPECT_NE(resumed.err.find("was measured together with run"), std::string::npos) << resumed.err;
    }
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 2);
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs"), 2);
    EXPECT_EQ(query(db, "SELECT count(*) FROM samples"), samples);

    const Result again = run_memwall(ci, d.path);
    EXPECT_TRUE(again.status == 0 || again.status == 1) << again.err;  // 1: an A/A false alarm
    for (const char* run : {"3", "4"}) {
        SCOPED_TRACE(std::string("run ") + run);
        const std::string of = std::string(" WHERE run_id = ") + run;
        EXPECT_EQ(
            query(db, ("SELECT count(*) FROM runs WHERE status = 'complete' AND id = " + std::string(run)).c_str()), 1);
        EXPECT_EQ(query(db, ("SELECT count(*) FROM cases" + of + " AND status = 'ok'").c_str()), kSweepCases);
        EXPECT_EQ(query(db, ("SELECT count(*) FROM (SELECT DISTINCT variant, problem FROM cases" + of + ")").c_str()),
                  kSweepCases);
        EXPECT_EQ(query(db, ("SELECT count(*) FROM cases c" + of +
                             " AND (SELECT count(DISTINCT rep) FROM samples s WHERE s.case_id = c.id) != 3")
                                .c_str()),
                  0);
    }
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases WHERE run_id <= 2"), 2 * kept);
}

}  // namespace

// Row 1: Google Benchmark aborted in its statistics check (exit 134, nothing kept).
TEST(Signals, RunWithRepetitionsInterruptedKeepsItsCompleteCases) {
    TempDir d;
    const Result r = interrupted(sweep({"--benchmark_repetitions=3"}), d.path, SIGINT);
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_EQ(r.err.find("ComputeStats"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("memwall: interrupted; `memwall run --resume 1` measures the rest"), std::string::npos)
        << r.err;
    EXPECT_GE(query(d.path / "s.db", kCases), 1);
    EXPECT_EQ(query(d.path / "s.db", "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 1);
    // Every stored case has its three repetitions.
    EXPECT_EQ(query(d.path / "s.db",
                    "SELECT count(*) FROM cases c WHERE (SELECT count(DISTINCT rep) FROM "
                    "samples s WHERE s.case_id = c.id) != 3"),
              0);
    expect_resumes(d.path, {"--benchmark_repetitions=3"});
}

// Row 1, ci: the same abort lost the run and its reports; now the cases measured are compared.
TEST(Signals, CiInterruptedReportsWhatItMeasured) {
    TempDir d;
    const std::vector<std::string> ci = tiny_ci(d.path, {"--baseline", "main"});
    std::vector<std::string> first = ci;
    first.push_back("--update-baseline");
    ASSERT_EQ(run_memwall(first, d.path).status, 0);
    std::vector<std::string> second = ci;
    second.insert(second.end(), {"--report-dir", "reports"});
    const Result r = interrupted(second, d.path, SIGTERM, "SELECT count(*) FROM cases WHERE run_id = 2");
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_EQ(r.err.find("ComputeStats"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run 2 was interrupted"), std::string::npos) << r.err;
    EXPECT_TRUE(std::filesystem::exists(d.path / "reports" / "report.md"));
    EXPECT_EQ(query(d.path / "s.db", "SELECT count(*) FROM cases WHERE run_id = 2 AND status != 'ok'"), 0);
    EXPECT_EQ(query(d.path / "s.db", "SELECT count(*) FROM run_tags WHERE key = 'baseline' AND run_id = 2"), 0);
}

// ci --baseline-build, the group signalled: see expect_baseline_build_interrupted.
TEST(Signals, CiBaselineBuildInterruptedByTheGroupKeepsItsPairs) {
    for (const int sig : {SIGTERM, SIGINT}) expect_baseline_build_interrupted(sig);
}

// Row 2: the case in flight was stored `failed: ... signal 15 (SIGTERM)`, and --resume skipped it.
TEST(Signals, AWorkerKilledByTheGroupsSigtermIsNotAFailure) {
    for (const int sig : {SIGTERM, SIGHUP}) {
        TempDir d;
        const Result r = interrupted(sweep(), d.path, sig);
        EXPECT_EQ(r.status, 130) << r.err;
        EXPECT_EQ(query(d.path / "s.db", kNotOk), 0) << r.err;
        expect_resumes(d.path);
    }
}

// Row 2, tune: the trial in flight was stored runtime_failed.
TEST(Signals, TuneInterruptedByTheGroupStoresNoFailedTrial) {
    TempDir d;
    const Result r =
        interrupted({"--db",          "s.db",    "tune",       "--family",   "attention",  "--variant", "flash",
                     "--axis",        "heads=1", "--axis",     "seq_q=64",   "--axis",     "seq_k=64",  "--axis",
                     "head_dim=64",   "--axis",  "causal=0",   "--strategy", "exhaustive", "--warmup",  "0",
                     "--min-samples", "3",       "--min-time", "0.1",        "--quiet"},
                    d.path, SIGTERM, "SELECT count(*) FROM tuning_trials");
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_EQ(query(d.path / "s.db", "SELECT count(*) FROM tuning_trials WHERE status != 'ok'"), 0) << r.err;
    EXPECT_EQ(query(d.path / "s.db", "SELECT count(*) FROM tuning_sessions WHERE status = 'interrupted'"), 1);
}

// Row 3: the database's directory deleted mid-run ended with 0 and "16 cases measured".
TEST(Signals, ADatabaseDeletedDuringTheRunIsSaid) {
    TempDir d;
    std::filesystem::create_directory(d.path / "sub");
    std::vector<std::string> args = sweep();
    args[1] = "sub/s.db";
    const pid_t pid = spawn_group(MEMWALL_BINARY, args, d.path);
    const bool reached = wait_until(d.path / "sub" / "s.db", kCases, 1, pid);
    std::filesystem::remove_all(d.path / "sub");
    const Result r = output_of(d.path, wait_bounded(pid, 120));
    ASSERT_TRUE(reached) << r.err;
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("sub/s.db: the database was deleted or moved while memwall wrote to it"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("cases measured"), std::string::npos) << r.out;
}

// Row 4: 249,500 points planned for a minute, then no case in 11 minutes, deaf to SIGINT and
// SIGTERM. Now the first case is stored within the bound, and an interrupt at any stage ends it.
TEST(Signals, AHugeSweepStartsPromptlyAndHonoursInterruptsWhilePlanned) {
    const std::vector<std::string> huge = {
        "--db",   "s.db",          "run",    "--family",      "attention",  "--variant", "naive",   "--unzip",
        "--axis", "seq_q=1:499:1", "--axis", "seq_k=1:500:1", "--ceilings", "none",      "--quiet", "--min-samples",
        "1",      "--min-time",    "0",      "--timeout",     "0.01"};
    {
        TempDir d;
        const auto t0 = std::chrono::steady_clock::now();
        const Result r = interrupted(huge, d.path, SIGTERM);
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 60) << r.err;
        EXPECT_EQ(r.status, 130) << r.err;
        EXPECT_EQ(query(d.path / "s.db", "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 1);
    }
    for (const int sig : {SIGINT, SIGTERM}) {  // 0.3 s in, mostly while it plans: 130 at either stage
        TempDir d;
        const pid_t pid = spawn_group(MEMWALL_BINARY, huge, d.path);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        kill(-pid, sig);
        const Result r = output_of(d.path, wait_bounded(pid, 60));
        EXPECT_EQ(r.status, 130) << r.err;
        EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
    }
}
