// A sweep killed with SIGKILL loses at most the case in flight; --resume measures only what is
// missing, without duplicates.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "attention_sweep.hpp"
#include "db_query.hpp"
#include "process.hpp"

using namespace memwall::test;

namespace {

// 2 variants x 10 sequence lengths; each case samples for ~0.15 s, so the sweep takes seconds.
const std::vector<std::string> sweep = attention_sweep("320", "0.15");
constexpr long long kTotalCases = 20;

}  // namespace

TEST(CrashResume, KilledSweepResumesWithoutDuplicates) {
    TempDir d;
    const auto db = d.path / "s.db";
    const pid_t pid = spawn_memwall(sweep, d.path);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline && query(db, "SELECT count(*) FROM cases") < 3)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int st = 0;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFSIGNALED(st)) << "the sweep finished before it could be killed";

    const long long kept = query(db, "SELECT count(*) FROM cases");
    EXPECT_GE(kept, 3);
    EXPECT_LT(kept, kTotalCases);
    // Every committed case is whole: an ok case has its samples and its counters.
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM cases c WHERE status = 'ok' AND (n_samples < 1 OR "
                    "(SELECT count(*) FROM samples s WHERE s.case_id = c.id) != n_samples OR "
                    "NOT EXISTS (SELECT 1 FROM counters k WHERE k.case_id = c.id))"),
              0);

    const Result r = run_memwall({"--db", "s.db", "run", "--resume", "--quiet"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("already stored"), std::string::npos) << r.err;
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs"), 1);
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases"), kTotalCases);
    EXPECT_EQ(query(db, "SELECT count(*) FROM (SELECT DISTINCT family, variant, backend, problem, config FROM cases)"),
              kTotalCases);
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases WHERE status != 'ok'"), 0);
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);

    // Resuming a complete run measures nothing more.
    const Result again = run_memwall({"--db", "s.db", "run", "--resume", "--quiet"}, d.path);
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(query(db, "SELECT count(*) FROM cases"), kTotalCases);
}
