#include "results/migrations.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "results/sqlite_statement.hpp"
#include "results/store.hpp"

namespace memwall {
namespace {

TEST(Migrations, NumberedConsecutivelyUpToLatest) {
    const auto ms = migrations();
    ASSERT_FALSE(ms.empty());
    for (std::size_t i = 0; i < ms.size(); ++i) EXPECT_EQ(ms[i].version, static_cast<int>(i) + 1);
    EXPECT_EQ(ms.back().version, Store::kSchemaVersionLatest);
}

struct Blank : ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
        db.reset(raw);
        sqlite3_extended_result_codes(raw, 1);  // as Store::open does
    }
    std::int64_t pragma(const char* name) {
        Statement st(raw, std::string("PRAGMA ") + name);
        st.step();
        return st.int64(0);
    }
    sqlite3* raw = nullptr;
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db{nullptr, sqlite3_close};
};

TEST_F(Blank, FromVersionZeroCreatesTheSchemaAndStampsIt) {
    EXPECT_EQ(user_version(raw), 0);
    migrate(raw, 0, Store::kSchemaVersionLatest);
    EXPECT_EQ(user_version(raw), Store::kSchemaVersionLatest);
    EXPECT_EQ(pragma("application_id"), Store::kApplicationId);
    for (const char* table : {"runs", "run_tags", "cases", "samples", "counters", "ceilings", "run_properties",
                              "tuning_sessions", "tuning_trials", "tuning_trial_samples", "tuning_trial_counters",
                              "tune_evals", "tune_eval_spaces", "tune_eval_scores"}) {
        Statement st(raw, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1");
        st.bind(1, table).step();
        EXPECT_EQ(st.int64(0), 1) << table;
    }
}

// A new database is made in one commit, so a creation killed half-way leaves it blank; it was
// left at the schema reached, read afterwards as "schema 6 is older than this memwall's 10".
TEST_F(Blank, ANewDatabaseIsMadeInOneCommit) {
    int commits = 0;
    sqlite3_commit_hook(
        raw, [](void* n) { return ++*static_cast<int*>(n), 0; }, &commits);
    migrate(raw, 0, Store::kSchemaVersionLatest);
    EXPECT_EQ(commits, 1);
    EXPECT_EQ(user_version(raw), Store::kSchemaVersionLatest);
    commits = 0;
    migrate(raw, Store::kSchemaVersionLatest, Store::kSchemaVersionLatest);  // nothing to do
    EXPECT_EQ(commits, 0);
}

TEST_F(Blank, VersionOneDataSurvivesTheMigrationToTwo) {
    migrate(raw, 0, 1);
    exec_sql(raw,
             "INSERT INTO runs (id, started_at, status, host, backend, device, command_line, memwall_version, sweep) "
             "VALUES (1, 't', 'complete', 'h', 'cpu', 'd', 'c', 'v', '{}')");
    migrate(raw, 1, 2);
    EXPECT_EQ(user_version(raw), 2);
    Statement st(raw, "SELECT count(*) FROM runs");
    st.step();
    EXPECT_EQ(st.int64(0), 1);
    exec_sql(raw, "INSERT INTO run_properties VALUES (1, 'name', 'cpu')");
}

TEST_F(Blank, VersionTwoTrialsCountOneMeasurementAfterTheMigrationToThree) {
    migrate(raw, 0, 2);
    exec_sql(raw,
             "INSERT INTO tuning_sessions (id, started_at, status, host, device, backend, family, variant, problem, "
             "strategy, seed, time_source, command_line, memwall_version) "
             "VALUES (1, 't', 'complete', 'h', 'd', 'cpu', 'f', 'v', '{}', 'guided', 1, 'measured', 'c', 'v')");
    exec_sql(raw,
             "INSERT INTO tuning_trials (session_id, idx, config, status, seconds) VALUES (1, 0, '{}', 'ok', 1.0)");
    migrate(raw, 2, 3);
    EXPECT_EQ(user_version(raw), 3);
    Statement st(raw, "SELECT measurements FROM tuning_trials");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.int64(0), 1);
    Statement none(raw, "UPDATE tuning_trials SET measurements = 0");
    EXPECT_EQ(none.run(true), SQLITE_CONSTRAINT_CHECK);
}

// Found by what it does, not its number, so the test holds wherever it lands in the list.
int ceiling_trust_version() {
    for (const Migration& m : migrations())
        if (m.what == "trust and provenance of ceilings") return m.version;
    return 0;
}

TEST_F(Blank, ReusedCeilingsGetTheirSourceRunAndTheirMethodBackInTheMigrationToTrust) {
    const int trust = ceiling_trust_version();
    ASSERT_GT(trust, 1);
    migrate(raw, 0, trust - 1);
    for (int id : {2, 3, 4})
        exec_sql(raw, ("INSERT INTO runs (id, started_at, status, host, backend, device, command_line, "
                       "memwall_version, sweep) VALUES (" +
                       std::to_string(id) +
                       ", 't', 'complete', 'h', 'cpu', 'd', "
                       "'c', 'v', '{}')")
                          .c_str());
    // Run 2 measured; 3 reused run 2's; 4 reused run 3's copy, so its method grew twice.
    exec_sql(
        raw,
        "INSERT INTO ceilings (run_id, name, kind, value, unit, method, capacity_bytes) VALUES "
        "(2, 'dram', 'bandwidth', 1.0, 'B/s', 'ERT a=a*b+c, 2 threads', 0), "
        "(3, 'dram', 'bandwidth', 1.0, 'B/s', 'ERT a=a*b+c, 2 threads (reused from run 2)', 0), "
        "(4, 'dram', 'bandwidth', 1.0, 'B/s', 'ERT a=a*b+c, 2 threads (reused from run 2) (reused from run 3)', 0)");
    migrate(raw, trust - 1, trust);
    Statement st(raw, "SELECT run_id, method, reused_from_run, unreliable FROM ceilings ORDER BY run_id");
    for (int id : {2, 3, 4}) {
        ASSERT_TRUE(st.step());
        EXPECT_EQ(st.int64(0), id);
        EXPECT_EQ(st.text(1), "ERT a=a*b+c, 2 threads") << id;
        if (id == 2)
            EXPECT_TRUE(st.is_null(2));
        else
            EXPECT_EQ(st.int64(2), 2) << id;  // the run that measured them, not the copy
        EXPECT_EQ(st.text(3), "");            // nothing said they could not be trusted
    }
}

TEST_F(Blank, TrialsNeedATimeExactlyWhenOkAndCascadeWithTheirSession) {
    migrate(raw, 0, Store::kSchemaVersionLatest);
    exec_sql(raw, "PRAGMA foreign_keys = ON");
    exec_sql(raw,
             "INSERT INTO tuning_sessions (id, started_at, status, host, device, backend, family, variant, problem, "
             "strategy, seed, time_source, command_line, memwall_version) "
             "VALUES (1, 't', 'running', 'h', 'd', 'cpu', 'f', 'v', '{}', 'guided', 1, 'measured', 'c', 'v')");
    Statement untimed(raw, "INSERT INTO tuning_trials (session_id, idx, config, status) VALUES (1, 0, '{}', 'ok')");
    EXPECT_EQ(untimed.run(true), SQLITE_CONSTRAINT_CHECK);
    Statement timed_failure(raw,
                            "INSERT INTO tuning_trials (session_id, idx, config, status, seconds) "
                            "VALUES (1, 0, '{}', 'failed', 1.0)");
    EXPECT_EQ(timed_failure.run(true), SQLITE_CONSTRAINT_CHECK);
    exec_sql(raw,
             "INSERT INTO tuning_trials (session_id, idx, config, status, seconds) VALUES (1, 0, '{}', 'ok', 1.0)");
    exec_sql(raw, "INSERT INTO tuning_trial_samples VALUES (1, 0, 0, 1.0)");
    exec_sql(raw, "INSERT INTO tuning_trial_counters VALUES (1, 0, 'dram__bytes_read.sum', 1.0, 'B', 'emu')");
    exec_sql(raw, "DELETE FROM tuning_sessions");
    for (const char* table : {"tuning_trials", "tuning_trial_samples", "tuning_trial_counters"}) {
        Statement st(raw, std::string("SELECT count(*) FROM ") + table);
        st.step();
        EXPECT_EQ(st.int64(0), 0) << table;
    }
}

TEST_F(Blank, AlreadyMigratedVersionsAreSkipped) {
    migrate(raw, 0, Store::kSchemaVersionLatest);
    // A second process that read version 0 before the first migrated must not fail.
    EXPECT_NO_THROW(migrate(raw, 0, Store::kSchemaVersionLatest));
    EXPECT_EQ(user_version(raw), Store::kSchemaVersionLatest);
}

TEST_F(Blank, SchemaEnforcesStatusesAndCascades) {
    migrate(raw, 0, Store::kSchemaVersionLatest);
    exec_sql(raw, "PRAGMA foreign_keys = ON");
    exec_sql(raw,
             "INSERT INTO runs (id, started_at, status, host, backend, device, command_line, memwall_version, sweep) "
             "VALUES (1, 't', 'running', 'h', 'cpu', 'd', 'c', 'v', '{}')");
    Statement bad(raw,
                  "INSERT INTO cases (run_id, family, variant, backend, problem, config, status, measured_at) "
                  "VALUES (1, 'f', 'v', 'cpu', '{}', '{}', 'exploded', 't')");
    EXPECT_EQ(bad.run(true), SQLITE_CONSTRAINT_CHECK);
    exec_sql(raw,
             "INSERT INTO cases (id, run_id, family, variant, backend, problem, config, status, measured_at) "
             "VALUES (1, 1, 'f', 'v', 'cpu', '{}', '{}', 'ok', 't')");
    exec_sql(raw, "INSERT INTO samples VALUES (1, 0, 0, 1.0)");
    exec_sql(raw, "INSERT INTO counters VALUES (1, 'flops', 1.0, 'FLOP', 'model')");
    exec_sql(raw, "INSERT INTO run_tags VALUES (1, 'k', 'v')");
    exec_sql(raw,
             "INSERT INTO ceilings (run_id, name, kind, value, unit, method) VALUES (1, 'dram', 'bandwidth', 1.0, "
             "'B/s', 'm')");
    exec_sql(raw, "DELETE FROM runs");
    for (const char* table : {"run_tags", "cases", "samples", "counters", "ceilings"}) {
        Statement st(raw, std::string("SELECT count(*) FROM ") + table);
        st.step();
        EXPECT_EQ(st.int64(0), 0) << table;
    }
}

// Version 11 rebuilds the cases table so a case may be unchecked: each case keeps its id, samples
// and counters; an imported run's timed cases become unchecked, others keep their status; the
// connection's foreign keys are on again after.
TEST_F(Blank, CasesKeepTheirSamplesAndImportedOnesBecomeUncheckedInTheMigrationToUnchecked) {
    exec_sql(raw, "PRAGMA foreign_keys = ON");
    migrate(raw, 0, 10);
    exec_sql(raw,
             "INSERT INTO runs (id, started_at, status, host, backend, device, command_line, memwall_version, sweep) "
             "VALUES (1, 't', 'complete', 'h', 'cpu', 'd', 'c', 'v', '{}'), "
             "(2, 't', 'complete', 'h', 'cpu', 'd', 'c', 'v', '{}')");
    exec_sql(raw, "INSERT INTO run_tags VALUES (2, 'imported', 'gbench')");
    exec_sql(
        raw,
        "INSERT INTO cases (id, run_id, family, variant, backend, problem, config, status, measured_at, "
        "sampling_stop) VALUES (5, 1, 'f', 'v', 'cpu', '{}', '{}', 'ok', 't', 'converged'), "
        "(6, 2, 'f', 'v', 'cpu', '{}', '{}', 'ok', 't', ''), (7, 2, 'f', 'w', 'cpu', '{}', '{}', 'failed', 't', '')");
    exec_sql(raw, "INSERT INTO samples VALUES (5, 0, 0, 1.0), (6, 0, 0, 2.0)");
    exec_sql(raw, "INSERT INTO counters VALUES (5, 'flops', 1.0, 'FLOP', 'model')");
    migrate(raw, 10, 11);
    EXPECT_EQ(pragma("foreign_keys"), 1);
    Statement st(raw,
                 "SELECT c.id, c.status, c.sampling_stop, (SELECT count(*) FROM samples s WHERE s.case_id = c.id), "
                 "(SELECT count(*) FROM counters k WHERE k.case_id = c.id) FROM cases c ORDER BY c.id");
    std::string got;
    while (st.step())
        got += std::to_string(st.int64(0)) + " " + st.text(1) + " " + st.text(2) + " " + std::to_string(st.int64(3)) +
               " " + std::to_string(st.int64(4)) + ";";
    EXPECT_EQ(got, "5 ok converged 1 1;6 unchecked  1 0;7 failed  0 0;");
    exec_sql(raw,
             "INSERT INTO cases (run_id, family, variant, backend, problem, config, status, measured_at) "
             "VALUES (1, 'f', 'x', 'cpu', '{}', '{}', 'unchecked', 't')");
    exec_sql(raw, "DELETE FROM runs WHERE id = 1");  // still cascades to the rebuilt table's rows
    Statement left(raw, "SELECT count(*) FROM samples");
    left.step();
    EXPECT_EQ(left.int64(0), 1);
}

}  // namespace
}  // namespace memwall
