// `memwall compare` end to end: exit statuses 0 / 1 / 2, the output formats and report files,
// and how runs are named (id, latest, tag, database file, FILE:RUN).
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "process.hpp"
#include "synthetic_runs.hpp"

using namespace memwall::test;
using memwall::Store;
using nlohmann::json;

namespace {

// Runs 1 and 2: the same build (A/A), different noise; run 3: 20% slower.
void make_runs(const TempDir& d, const std::string& name = "t.db") {
    Store store = Store::open((d.path / name).string(), Store::Mode::create);
    add_synthetic_run(store, {.seed = 1, .tags = {{"branch", "main"}}});
    add_synthetic_run(store, {.seed = 2, .tags = {{"branch", "main"}}});
    add_synthetic_run(store, {.scale = 1.2, .seed = 3, .tags = {{"branch", "slow"}}});
}

void expect_one_error_line(const Result& r, const std::string& needle) {
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    const auto l = lines(r.err);
    ASSERT_EQ(l.size(), 1u) << r.err;
    EXPECT_NE(l[0].find("memwall: error: "), std::string::npos) << l[0];
    EXPECT_NE(l[0].find(needle), std::string::npos) << l[0];
    EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace

TEST(CliCompare, SameBuildTwiceExitsZero) {
    TempDir d;
    make_runs(d);
    const Result r = run_memwall({"--db", "t.db", "compare", "1", "2"}, d.path);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("no regression: 2 SAME"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("attention/flash/cpu"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\033["), std::string::npos);  // no colour when not a terminal
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliCompare, ASlowerRunExitsOneInEveryFormat) {
    TempDir d;
    make_runs(d);
    const Result console = run_memwall({"--db", "t.db", "compare", "branch=main"}, d.path);  // vs latest
    EXPECT_EQ(console.status, 1) << console.out << console.err;
    EXPECT_NE(console.out.find("SLOWER"), std::string::npos) << console.out;
    EXPECT_NE(console.out.find("+20"), std::string::npos) << console.out;

    const Result j = run_memwall({"--db", "t.db", "compare", "1", "3", "--format", "json"}, d.path);
    EXPECT_EQ(j.status, 1);
    const json doc = json::parse(j.out);
    EXPECT_EQ(doc.at("summary").at("SLOWER"), 2);
    EXPECT_EQ(doc.at("summary").at("regression"), true);
    for (const auto& c : doc.at("cases")) {
        EXPECT_EQ(c.at("verdict"), "SLOWER");
        EXPECT_EQ(c.at("basis"), "repetitions");
        EXPECT_GT(c.at("ci").at(0).get<double>(), 1.05);
    }

    const Result x = run_memwall({"--db", "t.db", "compare", "1", "3", "--format", "junit"}, d.path);
    EXPECT_EQ(x.status, 1);
    EXPECT_NE(x.out.find("failures=\"2\""), std::string::npos) << x.out;
    const Result md = run_memwall({"--db", "t.db", "compare", "1", "3", "--format", "markdown"}, d.path);
    EXPECT_EQ(md.status, 1);
    EXPECT_NE(md.out.find("| **SLOWER** |"), std::string::npos) << md.out;
}

TEST(CliCompare, ThresholdDecides) {
    TempDir d;
    make_runs(d);
    const Result r = run_memwall({"--db", "t.db", "compare", "1", "3", "--threshold", "0.3"}, d.path);
    EXPECT_EQ(r.status, 0) << r.out;  // 20% is inside a 30% band
    EXPECT_NE(r.out.find("2 SAME"), std::string::npos) << r.out;
}

TEST(CliCompare, WritesTheReportFiles) {
    TempDir d;
    make_runs(d);
    const Result r = run_memwall({"--db", "t.db", "compare", "1", "3", "--report-dir", "reports"}, d.path);
    EXPECT_EQ(r.status, 1);
    for (const char* f : {"report.md", "report.json", "report.junit.xml"})
        EXPECT_TRUE(std::filesystem::exists(d.path / "reports" / f)) << f;
    std::ifstream in(d.path / "reports" / "report.json");
    EXPECT_EQ(json::parse(in).at("summary").at("regression"), true);
}

TEST(CliCompare, RunsFromDatabaseFiles) {
    TempDir d;
    {
        Store a = Store::open((d.path / "a.db").string(), Store::Mode::create);
        add_synthetic_run(a, {.seed = 1});
        add_synthetic_run(a, {.scale = 1.5, .seed = 4});
        Store b = Store::open((d.path / "b.db").string(), Store::Mode::create);
        add_synthetic_run(b, {.seed = 2});
    }
    // A file means its latest run: a.db's latest is 50% slower.
    EXPECT_EQ(run_memwall({"compare", "b.db", "a.db"}, d.path).status, 1);
    EXPECT_EQ(run_memwall({"compare", "b.db", "a.db:1"}, d.path).status, 0);
    EXPECT_EQ(run_memwall({"compare", "b.db:latest", "a.db:2"}, d.path).status, 1);
    EXPECT_EQ(run_memwall({"compare", "a.db", "b.db"}, d.path).status, 0);  // faster is no regression
    // A run against itself: the ratio is exactly 1 and the rank test finds nothing.
    const Result self = run_memwall({"--db", "a.db", "compare", "2", "2"}, d.path);
    EXPECT_EQ(self.status, 0);
    EXPECT_NE(self.out.find("no regression: 2 SAME\n"), std::string::npos) << self.out;
}

TEST(CliCompare, BadInputIsOneLineAndStatusTwo) {
    TempDir d;
    make_runs(d);
    {
        std::ofstream f(d.path / "notes.db");
        f << "not a database\n";
    }
    expect_one_error_line(run_memwall({"--db", "t.db", "compare", "1", "9"}, d.path), "no run 9");
    expect_one_error_line(run_memwall({"--db", "t.db", "compare", "branch=nope"}, d.path), "no run tagged branch=nope");
    expect_one_error_line(run_memwall({"--db", "missing.db", "compare", "1", "2"}, d.path), "missing.db: no such file");
    expect_one_error_line(run_memwall({"compare", "missing.db:1", "t.db:2"}, d.path), "missing.db: no such file");
    expect_one_error_line(run_memwall({"compare", "notes.db", "t.db"}, d.path), "not a SQLite database");
    expect_one_error_line(run_memwall({"--db", "t.db", "compare", "1", "2", "--threshold", "2"}, d.path),
                          "--threshold");
    expect_one_error_line(run_memwall({"--db", "t.db", "compare"}, d.path), "base");
    EXPECT_FALSE(std::filesystem::exists(d.path / "missing.db"));
}

TEST(CliCompare, OtherDevicesNeedCrossDevice) {
    TempDir d;
    {
        Store s = Store::open((d.path / "t.db").string(), Store::Mode::create);
        add_synthetic_run(s, {.seed = 1});
        add_synthetic_run(s, {.seed = 2, .device = "Intel Xeon 8480, 2 threads"});
    }
    expect_one_error_line(run_memwall({"--db", "t.db", "compare", "1", "2"}, d.path), "--cross-device");
    // Neither run has ceilings: the cases cannot be normalised, so they are UNSURE, with a warning.
    const Result r = run_memwall({"--db", "t.db", "compare", "1", "2", "--cross-device"}, d.path);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("memwall: warning: runs from different devices"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("cannot normalise"), std::string::npos) << r.out;
}

// Comparing nothing must not pass: a run without cases (as `memwall ceilings` stores), or two
// runs with no case in common, exit 2 unless --allow-empty.
TEST(CliCompare, NoMatchedCaseIsStatusTwoUnlessAllowed) {
    TempDir d;
    {
        Store s = Store::open((d.path / "t.db").string(), Store::Mode::create);
        add_synthetic_run(s, {.seed = 1});
        memwall::RunInfo empty;
        empty.host = "test-host";
        empty.backend = "cpu";
        empty.device = "AMD EPYC 9B14, 2 threads";
        s.finish_run(s.begin_run(empty), memwall::RunStatus::complete);  // run 2: no cases
        memwall::RunInfo other = empty;
        const std::int64_t id = s.begin_run(other);  // run 3: a case run 1 does not have
        memwall::CaseRecord c;
        c.run_id = id;
        c.key = {"attention", "naive", "cpu", R"({"heads":4,"seq_q":128})", "{}"};
        c.samples = {{1e-3, 1.1e-3}};
        s.save_case(c);
        s.finish_run(id, memwall::RunStatus::complete);
    }
    expect_one_error_line(run_memwall({"--db", "t.db", "compare", "1", "2"}, d.path),
                          "run 2 of t.db has no cases: nothing to compare; --allow-empty accepts that");
    expect_one_error_line(run_memwall({"--db", "t.db", "compare", "2", "1"}, d.path), "run 2 of t.db has no cases");
    expect_one_error_line(run_memwall({"--db", "t.db", "compare", "1", "3"}, d.path),
                          "no case of run 1 of t.db (2) matches one of run 3 of t.db (1)");
    for (const char* candidate : {"2", "3"}) {
        const Result r = run_memwall({"--db", "t.db", "compare", "1", candidate, "--allow-empty"}, d.path);
        EXPECT_EQ(r.status, 0) << r.out << r.err;
    }
    // A chart or an export of a run without cases says so too.
    expect_one_error_line(run_memwall({"--db", "t.db", "export", "2"}, d.path), "run 2 of t.db ('2') has no cases");
}
