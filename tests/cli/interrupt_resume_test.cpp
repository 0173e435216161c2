// `run` and `ci` interrupted at random moments (SIGINT or SIGTERM to the process group, at any
// stage: planning, ceilings, a case in flight, between repetitions) keep every completed case,
// store none as failed, and `run --resume` completes the run with no duplicates. Two moments
// each per test; `--gtest_repeat=N` tries more (docs/reliability.md has the figures).
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "attention_sweep.hpp"
#include "db_query.hpp"
#include "process.hpp"

using namespace memwall::test;

namespace {

constexpr long long kCases = 12;  // 2 variants x 6 sequence lengths

std::vector<std::string> run_args() {
    std::vector<std::string> a = attention_sweep("192", "0.05");
    a.push_back("--benchmark_repetitions=2");
    return a;
}

std::vector<std::string> ci_args(const std::filesystem::path& dir) {
    std::ofstream(dir / "suite.json") << R"({"name": "s", "families": ["attention"], "variants": ["naive", "flash"],
        "axes": ["heads=2", "seq_q=32:192:32", "seq_k=32:192:32", "head_dim=64", "causal=0"],
        "sampler": {"warmup_runs": 1, "min_samples": 1, "min_time": 0.05, "max_noise": 1e-9, "timeout": 0.05},
        "repetitions": 2})";
    return {"--db",       "s.db", "ci",     "--suite", "suite.json", "--baseline", "main", "--update-baseline",
            "--ceilings", "none", "--quiet"};
}

// One round: start, interrupt at a random moment, check what is kept, resume, check the whole.
void round(const std::vector<std::string>& args, const std::filesystem::path& dir, std::mt19937& rng) {
    const double after = std::uniform_real_distribution<double>(0.05, 5.0)(rng);
    const int sig = std::bernoulli_distribution(0.5)(rng) ? SIGINT : SIGTERM;
    SCOPED_TRACE("signal " + std::to_string(sig) + " after " + std::to_string(after) + " s");
    const pid_t pid = spawn_group(MEMWALL_BINARY, args, dir);
    std::this_thread::sleep_for(std::chrono::duration<double>(after));
    kill(-pid, sig);
    const Result r = output_of(dir, wait_bounded(pid, 120));
    const auto db = dir / "s.db";
    if (!std::filesystem::exists(db) || query(db, "SELECT count(*) FROM runs") <= 0) {
        // Interrupted while planning (130), or before the command installed its handlers, in its
        // first milliseconds (killed by the signal): nothing stored, nothing to resume.
        EXPECT_TRUE(r.status == 130 || r.status == 128 + sig) << r.status << ": " << r.err;
        std::cerr << "signal " << sig << " after " << after << " s: exit " << r.status << ", no run stored\n";
        return;
    }
    ASSERT_TRUE(r.status == 130 || r.status == 0) << r.status << ": " << r.err;  // 0: it ended first
    const long long kept = query(db, "SELECT count(*) FROM cases");
    std::cerr << "signal " << sig << " after " << after << " s: exit " << r.status << ", " << kept << " of " << kCases
              << " cases kept\n";
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases WHERE status != 'ok'"), 0) << r.err;
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM cases c WHERE (SELECT count(DISTINCT rep) FROM samples s "
                    "WHERE s.case_id = c.id) != 2"),
              0);
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE status = 'running'"), 0);

    const Result resumed = run_memwall(
        {"--db", "s.db", "run", "--resume", "--quiet", "--ceilings", "none", "--benchmark_repetitions=2"}, dir);
    EXPECT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find(std::to_string(kept) + " of " + std::to_string(kCases) + " cases already stored"),
              std::string::npos)
        << resumed.err;
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases"), kCases);
    EXPECT_EQ(query(db, "SELECT count(*) FROM (SELECT DISTINCT family, variant, backend, problem, config FROM cases)"),
              kCases);
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases WHERE status != 'ok'"), 0);
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
}

std::mt19937 seeded() {
    const unsigned seed = std::random_device{}();
    std::cerr << "seed " << seed << "\n";
    return std::mt19937(seed);
}

}  // namespace

TEST(InterruptResume, RunInterruptedAtRandomMomentsResumesWhole) {
    std::mt19937 rng = seeded();
    for (int i = 0; i < 2; ++i) {
        TempDir d;
        round(run_args(), d.path, rng);
    }
}

TEST(InterruptResume, CiInterruptedAtRandomMomentsResumesWhole) {
    std::mt19937 rng = seeded();
    for (int i = 0; i < 2; ++i) {
        TempDir d;
        round(ci_args(d.path), d.path, rng);
    }
}
