// `memwall ci` end to end in A/A mode: a tiny CPU attention suite recorded as the baseline, then
// run again and compared. What is asserted is the rule (exit status, verdicts consistent with
// their intervals and p-values, reports), never the machine's speed, so the test is reliable
// on a loaded machine.
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "process.hpp"

using namespace memwall::test;
using nlohmann::json;

namespace {

const char* kSuite = R"({
  "name": "tiny",
  "families": ["attention"],
  "variants": ["naive", "flash"],
  "axes": ["heads=2", "seq_q=64", "seq_k=64", "head_dim=64", "causal=0,1"],
  "sampler": {"warmup_runs": 1, "min_samples": 5, "min_time": 0, "timeout": 0.05},
  "repetitions": 4
})";

void write(const std::filesystem::path& p, const std::string& text) {
    std::ofstream f(p);
    f << text;
}

std::vector<std::string> ci(std::vector<std::string> extra) {
    std::vector<std::string> a = {"--db", "ci.db", "ci", "--suite", "tiny.json", "--ceilings", "none", "--quiet"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

// The verdict each case must have, from its own numbers.
std::string expected_verdict(const json& c, double threshold, double alpha) {
    if (c.at("ci").is_null()) return "UNSURE";
    // A side timed while the host was too busy (its samples' threads waited to run) is never
    // judged beyond UNSURE, whatever its numbers: on a loaded machine some cases are.
    if (c.at("reason").get<std::string>().find("measured while the host was busy") != std::string::npos)
        return "UNSURE";
    const double lo = c.at("ci").at(0), hi = c.at("ci").at(1), p = c.at("p_value");
    const double up = 1 + threshold, down = 1 / up;
    if (lo >= down && hi <= up) return "SAME";
    if (lo > up && p < alpha) return "SLOWER";
    if (hi < down && p < alpha) return "FASTER";
    return "UNSURE";
}

}  // namespace

TEST(CliCi, AaRunFollowsTheRule) {
    TempDir d;
    write(d.path / "tiny.json", kSuite);
    const Result first = run_memwall(ci({"--baseline", "main", "--update-baseline", "--tag", "commit=aaa"}), d.path);
    ASSERT_EQ(first.status, 0) << first.out << first.err;
    EXPECT_NE(first.out.find("nothing to compare with"), std::string::npos) << first.out;
    EXPECT_NE(first.out.find("run 1 is now the baseline baseline=main"), std::string::npos) << first.out;

    const Result second =
        run_memwall(ci({"--baseline", "main", "--report-dir", "reports", "--tag", "commit=bbb"}), d.path);
    ASSERT_TRUE(second.status == 0 || second.status == 1) << second.out << second.err;
    std::ifstream in(d.path / "reports" / "report.json");
    const json report = json::parse(in);
    EXPECT_EQ(report.at("base").at("run"), 1);
    EXPECT_EQ(report.at("candidate").at("run"), 2);
    EXPECT_EQ(report.at("candidate").at("tags").at("commit"), "bbb");
    EXPECT_EQ(report.at("candidate").at("tags").at("suite"), "tiny");
    ASSERT_EQ(report.at("cases").size(), 4u);  // naive and flash, causal 0 and 1
    EXPECT_TRUE(report.at("only_in_base").empty());
    std::size_t slower = 0;
    for (const auto& c : report.at("cases")) {
        EXPECT_EQ(c.at("verdict"), expected_verdict(c, 0.05, 0.05)) << c.dump();
        EXPECT_NE(c.at("verdict"), "FAILED") << c.dump();
        EXPECT_EQ(c.at("candidate").at("repetitions"), 4);
        slower += c.at("verdict") == "SLOWER";
    }
    // Exit status 1 exactly when a case is SLOWER; JUnit shows each as a failure.
    EXPECT_EQ(second.status, slower > 0 ? 1 : 0) << second.out;
    EXPECT_EQ(report.at("summary").at("regression"), slower > 0);
    std::ifstream junit(d.path / "reports" / "report.junit.xml");
    const std::string xml{std::istreambuf_iterator<char>(junit), {}};
    EXPECT_NE(xml.find("failures=\"" + std::to_string(slower) + "\""), std::string::npos) << xml;
    EXPECT_TRUE(std::filesystem::exists(d.path / "reports" / "report.md"));

    // The CI run records what it measured on, as `run` does.
    const Result exported = run_memwall({"--db", "ci.db", "export", "2", "--format", "json"}, d.path);
    ASSERT_EQ(exported.status, 0) << exported.err;
    EXPECT_FALSE(json::parse(exported.out).at("run").at("properties").at("cpu.model").get<std::string>().empty());

    // A stored run against itself: every ratio exactly 1, and with p = 1 never SLOWER or FASTER
    // (SAME or, when its samples are noisy, UNSURE).
    const Result self =
        run_memwall({"--db", "ci.db", "compare", "baseline=main", "baseline=main", "--format", "json"}, d.path);
    EXPECT_EQ(self.status, 0) << self.out;
    for (const auto& c : json::parse(self.out).at("cases")) {
        EXPECT_EQ(c.at("ratio"), 1.0) << c.dump();
        EXPECT_EQ(c.at("p_value"), 1.0) << c.dump();
        EXPECT_TRUE(c.at("verdict") == "SAME" || c.at("verdict") == "UNSURE") << c.dump();
    }
}

TEST(CliCi, MissingBaselineOrBadSuiteIsStatusTwoAndTouchesNothing) {
    TempDir d;
    write(d.path / "tiny.json", kSuite);
    write(d.path / "typo.json", R"({"families": ["attention"], "repetitons": 3})");
    write(d.path / "broken.json", R"({"families": ["attention"],)");
    auto refused = [&](const std::vector<std::string>& args, const std::string& needle) {
        const auto before = snapshot(d.path);
        const Result r = run_memwall(args, d.path);
        EXPECT_EQ(r.status, 2) << r.out << r.err;
        const auto l = lines(r.err);
        ASSERT_EQ(l.size(), 1u) << r.err;
        EXPECT_NE(l[0].find(needle), std::string::npos) << l[0];
        EXPECT_EQ(snapshot(d.path), before);
    };
    refused(ci({"--baseline", "main"}), "no baseline");
    refused({"--db", "ci.db", "ci", "--suite", "typo.json", "--baseline", "main"}, "unknown key 'repetitons'");
    refused({"--db", "ci.db", "ci", "--suite", "broken.json", "--baseline", "main"}, "not JSON");
    refused({"--db", "ci.db", "ci", "--suite", "none.json", "--baseline", "main"}, "none.json");
    refused(ci({"--baseline", "=x", "--update-baseline"}), "--baseline");
    refused(ci({"--baseline", "main", "--update-baseline", "--benchmark_repetitions=3"}), "suite file");
}

TEST(CliCi, ABaselineBuildIsMeasuredBesideThisOneAndComparedPairByPair) {
    TempDir d;
    write(d.path / "tiny.json", kSuite);
    // This build against itself: an A/A of two worker processes. With 4 pairs the signed-rank
    // test cannot reach p < 0.05 (2/16 at best), so no case can be SLOWER: the exit status is 0.
    const Result r =
        run_memwall(ci({"--baseline-build", MEMWALL_BINARY, "--report-dir", "reports", "--tag", "commit=ccc"}), d.path);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("measured together, 4 cases"), std::string::npos) << r.out;
    std::ifstream in(d.path / "reports" / "report.json");
    const json report = json::parse(in);
    EXPECT_TRUE(report.at("paired"));
    EXPECT_NE(report.at("rule").get<std::string>().find("Wilcoxon signed-rank"), std::string::npos);
    EXPECT_EQ(report.at("base").at("run"), 1);
    EXPECT_EQ(report.at("base").at("tags").at("build"), MEMWALL_BINARY);
    EXPECT_EQ(report.at("candidate").at("run"), 2);
    EXPECT_EQ(report.at("candidate").at("tags").at("paired_with"), "1");
    EXPECT_EQ(report.at("candidate").at("tags").at("commit"), "ccc");
    ASSERT_EQ(report.at("cases").size(), 4u);
    for (const auto& c : report.at("cases")) {
        EXPECT_EQ(c.at("basis"), "paired repetitions") << c.dump();
        EXPECT_EQ(c.at("base").at("repetitions"), 4);
        EXPECT_EQ(c.at("candidate").at("repetitions"), 4);
        EXPECT_EQ(c.at("base").at("n"), c.at("candidate").at("n"));  // samples come in pairs
        EXPECT_EQ(c.at("verdict"), expected_verdict(c, 0.05, 0.05)) << c.dump();
    }
    // The stored pair compares the same way afterwards.
    const Result again = run_memwall({"--db", "ci.db", "compare", "1", "2", "--format", "json"}, d.path);
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_TRUE(json::parse(again.out).at("paired"));
}

TEST(CliCi, ABadBaselineBuildIsStatusTwoAndTouchesNothing) {
    TempDir d;
    write(d.path / "tiny.json", kSuite);
    auto refused = [&](const std::vector<std::string>& args, const std::string& needle) {
        const auto before = snapshot(d.path);
        const Result r = run_memwall(args, d.path);
        EXPECT_EQ(r.status, 2) << r.out << r.err;
        const auto l = lines(r.err);
        ASSERT_FALSE(l.empty());
        EXPECT_NE(l.back().find(needle), std::string::npos) << r.err;
        EXPECT_EQ(snapshot(d.path), before);
    };
    refused(ci({"--baseline-build", "no/such/memwall"}), "not an executable file");
    refused(ci({"--baseline-build", "/bin/true"}), "did not answer as a memwall measure-worker");
    refused(ci({"--baseline-build", MEMWALL_BINARY, "--baseline", "main"}), "give one baseline");
    refused(ci({}), "give one baseline");
    refused(ci({"--baseline-build", MEMWALL_BINARY, "--update-baseline"}), "--update-baseline");
}

namespace {

long long count(const std::filesystem::path& db, const char* sql) {
    sqlite3* h = nullptr;
    long long v = -1;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(h, 2000);
        if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

}  // namespace

TEST(CliCi, AKilledBaselineBuildMeasurementKeepsItsCompletedPairs) {
    TempDir d;
    std::string suite = kSuite;
    suite.replace(suite.find("\"repetitions\": 4"), 17, "\"repetitions\": 30");
    write(d.path / "tiny.json", suite);
    const pid_t pid = spawn_memwall(ci({"--baseline-build", MEMWALL_BINARY}), d.path);
    const auto db = d.path / "ci.db";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline && count(db, "SELECT count(*) FROM samples") < 40)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int st = 0;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFSIGNALED(st)) << "the measurement finished before it could be killed";

    // Both runs hold the same cases, each with as many samples on one side as on the other.
    EXPECT_GE(count(db, "SELECT count(*) FROM cases WHERE run_id = 2"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM cases WHERE run_id = 1"),
              count(db, "SELECT count(*) FROM cases WHERE run_id = 2"));
    EXPECT_EQ(count(db,
                    "SELECT count(*) FROM cases b JOIN cases c ON b.run_id = 1 AND c.run_id = 2 AND "
                    "b.variant = c.variant AND b.problem = c.problem AND b.n_samples = c.n_samples"),
              count(db, "SELECT count(*) FROM cases WHERE run_id = 1"));
    // Killed, both runs read as abandoned, not running.
    const Result shown = run_memwall({"--db", "ci.db", "show"}, d.path);
    EXPECT_EQ(shown.status, 0) << shown.err;
    const auto rows = lines(shown.out);
    EXPECT_EQ(std::count_if(rows.begin(), rows.end(),
                            [](const std::string& l) { return l.find("abandoned") != std::string::npos; }),
              2)
        << shown.out;
}
