// A sweep over variants that segfault, hang in set-up and allocate without bound completes:
// each such case is stored as failed or timeout with its reason, every other case is ok, and
// --resume does not measure them again unless --retry-failed.
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <chrono>
#include <map>
#include <thread>

#include <gtest/gtest.h>

#include "process.hpp"

using namespace memwall::test;

namespace {

// variant -> (status, message) of each stored case of the faults family, n ascending.
std::multimap<std::string, std::pair<std::string, std::string>> stored(const std::filesystem::path& db) {
    std::multimap<std::string, std::pair<std::string, std::string>> out;
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(
        sqlite3_prepare_v2(h, "SELECT variant, status, message FROM cases ORDER BY variant, problem", -1, &st, nullptr),
        SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        auto text = [&](int c) { return std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, c))); };
        out.emplace(text(0), std::pair{text(1), text(2)});
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

long long stored_runs(const std::filesystem::path& db) {
    sqlite3* h = nullptr;
    long long n = 0;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(h, "SELECT count(*) FROM runs", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

const std::vector<std::string> sweep = {
    "--db", "f.db",       "run",  "--family",  "faults", "--ceilings",     "none", "--quiet",       "--min-samples",
    "1",    "--min-time", "0.01", "--timeout", "0.05",   "--case-timeout", "2",    "--case-memory", "256MiB"};

// The same run resumed: its sweep comes from the database.
const std::vector<std::string> resume = {"--db",    "f.db",           "run", "--resume",      "--ceilings", "none",
                                         "--quiet", "--case-timeout", "2",   "--case-memory", "256MiB"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

}  // namespace

TEST(Isolation, FaultyCasesCostThemselvesAloneAndAreNotRetriedOnResume) {
    TempDir d;
    const Result r = run_program(MEMWALL_FAULTS_BINARY, sweep, d.path);
    EXPECT_EQ(r.status, 1) << r.err;  // cases that did not pass
    const auto cases = stored(d.path / "f.db");
    ASSERT_EQ(cases.size(), 8u) << r.out << r.err;
    for (const auto& [variant, result] : cases) {
        const auto& [status, message] = result;
        if (variant == "ok") {
            EXPECT_EQ(status, "ok") << message;
        } else if (variant == "segfault") {
            EXPECT_EQ(status, "failed");
            EXPECT_NE(message.find("killed by signal 11 (SIGSEGV)"), std::string::npos) << message;
            EXPECT_NE(message.find("check"), std::string::npos) << message;
        } else if (variant == "hang_setup") {
            EXPECT_EQ(status, "timeout");
            EXPECT_NE(message.find("set-up"), std::string::npos) << message;
        } else {
            ASSERT_EQ(variant, "unbounded_alloc");
            EXPECT_EQ(status, "failed");
            EXPECT_NE(message.find("out of memory"), std::string::npos) << message;
            EXPECT_NE(message.find("256 MiB"), std::string::npos) << message;
        }
    }
    EXPECT_NE(r.out.find("isolation: 8 cases in 5 worker processes"), std::string::npos) << r.out;

    const Result resumed = run_program(MEMWALL_FAULTS_BINARY, resume, d.path);
    EXPECT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.out.find("0 cases measured, 8 already stored"), std::string::npos) << resumed.out;

    const Result retried = run_program(MEMWALL_FAULTS_BINARY, with(resume, {"--retry-failed"}), d.path);
    EXPECT_EQ(retried.status, 1) << retried.err;
    EXPECT_NE(retried.err.find("retrying 6 failed or timed-out case(s)"), std::string::npos) << retried.err;
    EXPECT_NE(retried.out.find("6 cases measured, 2 already stored"), std::string::npos) << retried.out;
    EXPECT_EQ(stored(d.path / "f.db").size(), 8u);
}

TEST(Isolation, AMemoryLimitNeedsIsolation) {
    TempDir d;
    const Result r = run_program(MEMWALL_FAULTS_BINARY, with(sweep, {"--no-isolate"}), d.path);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--case-memory needs isolation"), std::string::npos) << r.err;
}

TEST(Isolation, AMalformedMemoryLimitIsRefused) {
    TempDir d;
    const Result r = run_program(MEMWALL_FAULTS_BINARY, {"run", "--family", "faults", "--case-memory", "lots"}, d.path);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--case-memory 'lots' is not a size"), std::string::npos) << r.err;
}

TEST(Isolation, ARunBeingMeasuredIsNotResumedElsewhereButAKilledOneIs) {
    TempDir d;
    const pid_t sweep = spawn_program(MEMWALL_FAULTS_BINARY,
                                      {"--db", "f.db", "run", "--family", "faults", "--variant", "hang_setup",
                                       "--ceilings", "none", "--quiet", "--case-timeout", "60"},
                                      d.path);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline && stored_runs(d.path / "f.db") < 1)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const Result busy = run_program(MEMWALL_FAULTS_BINARY, {"--db", "f.db", "run", "--resume", "--quiet"}, d.path);
    EXPECT_EQ(busy.status, 2) << busy.err;
    EXPECT_NE(busy.err.find("run 1 is being measured by process " + std::to_string(sweep)), std::string::npos)
        << busy.err;
    kill(sweep, SIGKILL);
    int st = 0;
    waitpid(sweep, &st, 0);
    const Result shown = run_program(MEMWALL_FAULTS_BINARY, {"--db", "f.db", "show"}, d.path);
    EXPECT_NE(shown.out.find("abandoned"), std::string::npos) << shown.out;
    // Killed, it is abandoned, and resuming it is allowed (its hanging cases time out quickly).
    const Result resumed = run_program(MEMWALL_FAULTS_BINARY,
                                       {"--db", "f.db", "run", "--resume", "--quiet", "--case-timeout", "0.5"}, d.path);
    EXPECT_EQ(resumed.status, 1) << resumed.err;
    EXPECT_NE(resumed.out.find("2 cases measured"), std::string::npos) << resumed.out;
}
