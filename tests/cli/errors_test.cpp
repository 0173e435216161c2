// Bad input prints one clear line, exits with status 2, and leaves every file untouched.
#include <sqlite3.h>

#include <fstream>

#include <gtest/gtest.h>

#include "process.hpp"

using namespace memwall::test;

namespace {

void make_sqlite(const std::filesystem::path& p, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(p.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

// Runs memwall in `dir` and expects status 2, one line on stderr mentioning `needle`, and the
// directory exactly as it was.
void expect_refused(const TempDir& dir, const std::vector<std::string>& args, const std::string& needle) {
    const auto before = snapshot(dir.path);
    const Result r = run_memwall(args, dir.path);
    EXPECT_EQ(r.status, 2) << r.err;
    const auto l = lines(r.err);
    ASSERT_EQ(l.size(), 1u) << r.err;
    EXPECT_NE(l[0].find("memwall: error: "), std::string::npos) << l[0];
    EXPECT_NE(l[0].find(needle), std::string::npos) << l[0];
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(snapshot(dir.path), before);
}

const std::vector<std::string> quick = {"--ceilings", "none", "--quiet"};

std::vector<std::string> cat(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

TEST(CliErrors, UnknownNames) {
    TempDir d;
    expect_refused(d, cat({"run", "--family", "nope"}, quick), "unknown family 'nope'");
    expect_refused(d, cat({"run", "--family", "attention", "--variant", "nope"}, quick), "unknown variant 'nope'");
    expect_refused(d, cat({"run", "--axis", "bogus=1"}, quick), "unknown axis 'bogus'");
    expect_refused(d, cat({"run", "--backend", "tpu"}, quick), "unknown backend 'tpu'");
    expect_refused(d, {"frobnicate"}, "frobnicate");
    expect_refused(d, {"list", "--family", "nope"}, "unknown family");
}

TEST(CliErrors, MalformedAxisValues) {
    TempDir d;
    expect_refused(d, cat({"run", "--axis", "seq_q=abc"}, quick), "axis 'seq_q'");
    expect_refused(d, cat({"run", "--axis", "head_dim=96", "--family", "attention"}, quick), "not one of");
    expect_refused(d, cat({"run", "--axis", "seq_q=pow2:3:9"}, quick), "powers of two");
    expect_refused(d, cat({"run", "--axis", "seq_q"}, quick), "expected name=values");
    expect_refused(d, cat({"run", "--axis", "seq_q=1024"}, quick), "--unzip");
    expect_refused(d, cat({"run", "--min-samples", "0"}, quick), "--min-samples");
    const std::vector<std::string> conv = {"run", "--family", "conv", "--axis", "layer=custom"};
    expect_refused(d, cat(cat(conv, {"--axis", "C=0"}), quick), "axis 'C'");
    expect_refused(d, cat(cat(conv, {"--axis", "stride=0"}), quick), "axis 'stride'");
    expect_refused(d, cat(cat(conv, {"--axis", "H=3", "--axis", "R=7", "--axis", "S=7"}), quick),
                   "larger than the padded 5x58 input");
    expect_refused(d, cat({"run", "--family", "conv", "--axis", "C=3"}, quick), "axis 'C' has no effect");
}

// Each file of the malformed Matrix Market corpus (its name ends .L<line>.mtx) stops a sweep
// before anything is measured, naming the file and the line; the database is untouched.
TEST(CliErrors, MalformedMatrixMarketFiles) {
    TempDir d;
    const Result made = run_memwall(cat({"run", "--family", "spgemm", "--variant", "esc", "--axis", "matrix=poisson2d",
                                         "--axis", "nx=3", "--db", "runs.db", "--min-samples", "3"},
                                        quick),
                                    d.path);
    ASSERT_EQ(made.status, 0) << made.err;
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(MEMWALL_MALFORMED_MTX_DIR)) {
        const std::string name = e.path().filename().string();
        const auto l = name.rfind(".L");
        ASSERT_NE(l, std::string::npos) << name;
        const std::string line = name.substr(l + 2, name.size() - 4 - (l + 2));
        expect_refused(
            d, cat({"run", "--family", "spgemm", "--axis", "matrix=" + e.path().string(), "--db", "runs.db"}, quick),
            name + ":" + line + ":");
        ++files;
    }
    EXPECT_GE(files, 20);
}

// Every time, fraction and limit is a finite number in its range: --case-timeout inf, nan, 0 and
// -1 were accepted, and every case was then stored failed or timeout.
TEST(CliErrors, NumbersMustBeFiniteAndInRange) {
    TempDir d;
    const std::vector<std::string> tune = {"tune", "--family", "attention", "--variant", "flash"};
    for (const char* v : {"inf", "nan", "0", "-1", "1e400"}) {
        expect_refused(d, cat({"run", "--case-timeout", v}, quick), "--case-timeout");
        expect_refused(d, cat(tune, {"--case-timeout", v}), "--case-timeout");
    }
    expect_refused(d, cat({"run", "--timeout", "inf"}, quick), "--timeout");
    expect_refused(d, cat({"run", "--min-time", "inf"}, quick), "--min-time");
    expect_refused(d, cat({"run", "--max-noise", "nan"}, quick), "--max-noise");
    expect_refused(d, cat(tune, {"--seconds", "nan"}), "--seconds");
    expect_refused(d, cat(tune, {"--stop-chance", "nan"}), "--stop-chance");
    expect_refused(d, cat(tune, {"--timeout", "inf"}), "--timeout");
    // "-1" into an unsigned option was its largest value: tune --budget -1 ran without a budget.
    for (const char* option : {"--budget", "--stale", "--confirm", "--seed"})
        expect_refused(d, cat(tune, {option, "-1"}), option);
    expect_refused(d, cat({"run", "--seed", "-1"}, quick), "--seed");
    expect_refused(d, {"history", "--last", "-1"}, "--last");
}

TEST(CliErrors, NotADatabase) {
    TempDir d;
    {
        std::ofstream f(d.path / "notes.db");
        f << "these are my notes, not a database\n";
    }
    expect_refused(d, cat({"--db", "notes.db", "run", "--family", "attention"}, quick), "not a SQLite database");
    expect_refused(d, {"--db", "notes.db", "show"}, "not a SQLite database");
    expect_refused(d, {"--db", "notes.db", "export"}, "not a SQLite database");
}

TEST(CliErrors, ForeignSqliteDatabase) {
    TempDir d;
    make_sqlite(d.path / "other.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    expect_refused(d, cat({"--db", "other.db", "run", "--family", "attention"}, quick), "not a memwall database");
    expect_refused(d, {"--db", "other.db", "show"}, "not a memwall database");
}

TEST(CliErrors, NewerSchema) {
    TempDir d;
    make_sqlite(d.path / "future.db",
                "PRAGMA application_id = 1297566796; PRAGMA user_version = 99; CREATE TABLE runs(id);");
    expect_refused(d, cat({"--db", "future.db", "run", "--family", "attention"}, quick), "newer memwall");
    expect_refused(d, {"--db", "future.db", "show"}, "newer memwall");
}

TEST(CliErrors, MissingDatabaseIsNotCreatedByReaders) {
    TempDir d;
    expect_refused(d, {"--db", "missing.db", "show"}, "missing.db");
    expect_refused(d, {"--db", "missing.db", "export"}, "missing.db");
}

TEST(CliErrors, HelpIsNotAnError) {
    TempDir d;
    for (const char* cmd : {"list", "run", "show", "export", "ceilings"}) {
        const Result r = run_memwall({cmd, "--help"}, d.path);
        EXPECT_EQ(r.status, 0) << cmd;
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
    }
    EXPECT_TRUE(snapshot(d.path).empty());
}

// memwall metrics (CUPTI's host API, no GPU): a misspelt metric or an unknown chip is refused,
// one line each, and a metric list needs a chip.
TEST(CliErrors, MetricsNamesCuptiDoesNotKnow) {
    TempDir d;
    if (run_memwall({"metrics"}, d.path).status != 0) GTEST_SKIP() << "CUPTI unavailable here";
    expect_refused(d, {"metrics", "--chip", "GH100", "--metrics", "dram__bytes_read.sum,dram__bytez_read.sum"},
                   "'dram__bytez_read.sum' is not a metric of GH100");
    expect_refused(d, {"metrics", "--chip", "XX100"}, "unknown chip 'XX100'");
    expect_refused(d, {"metrics", "--metrics", "dram__bytes_read.sum"}, "need --chip");
    // Two bad names: two lines.
    const Result r = run_memwall({"metrics", "--chip", "GH100", "--metrics", "a.sum,lts__t_bytes.sum,b.sum"}, d.path);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines(r.err).size(), 2u) << r.err;
}
