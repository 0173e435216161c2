#include "results/sqlite_statement.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

struct MemoryDb : ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
        db.reset(raw);
        exec_sql(raw, "CREATE TABLE t (i INTEGER, r REAL, s TEXT)");
    }
    std::int64_t count() {
        Statement st(raw, "SELECT count(*) FROM t");
        st.step();
        return st.int64(0);
    }
    sqlite3* raw = nullptr;
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db{nullptr, sqlite3_close};
};

TEST_F(MemoryDb, BoundValuesReadBack) {
    Statement ins(raw, "INSERT INTO t (i, r, s) VALUES (?1, ?2, ?3)");
    ins.bind(1, std::int64_t{1} << 40).bind(2, 0.25).bind(3, std::string("it's, \"quoted\"")).run();
    ins.reset();
    ins.bind(1, std::int64_t{1} << 41).bind(2, std::optional<double>{}).bind(3, "").run();

    Statement sel(raw, "SELECT i, r, r IS NULL, s FROM t ORDER BY i");
    ASSERT_TRUE(sel.step());
    EXPECT_EQ(sel.int64(0), std::int64_t{1} << 40);
    EXPECT_EQ(sel.real(1), 0.25);
    EXPECT_EQ(sel.int64(2), 0);
    EXPECT_EQ(sel.text(3), "it's, \"quoted\"");
    ASSERT_TRUE(sel.step());
    EXPECT_EQ(sel.int64(2), 1);
    EXPECT_EQ(sel.text(3), "");
    EXPECT_FALSE(sel.step());
}

TEST_F(MemoryDb, TransactionRollsBackUnlessCommitted) {
    {
        Transaction tx(raw);
        Statement(raw, "INSERT INTO t (i) VALUES (1)").run();
    }
    EXPECT_EQ(count(), 0);
    {
        Transaction tx(raw);
        Statement(raw, "INSERT INTO t (i) VALUES (1)").run();
        tx.commit();
    }
    EXPECT_EQ(count(), 1);
}

TEST_F(MemoryDb, ErrorsNameTheStatement) {
    try {
        Statement(raw, "SELECT nope FROM t");
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("SELECT nope FROM t"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("no such column"), std::string::npos) << e.what();
    }
}

TEST_F(MemoryDb, ConstraintViolationIsReportedOnlyWhenAllowed) {
    exec_sql(raw, "CREATE TABLE u (k TEXT PRIMARY KEY)");
    Statement(raw, "INSERT INTO u VALUES ('a')").run();
    Statement again(raw, "INSERT INTO u VALUES ('a')");
    EXPECT_EQ(again.run(true) & 0xff, SQLITE_CONSTRAINT);
    again.reset();
    EXPECT_THROW(again.run(), std::runtime_error);
}

TEST(SqliteErrors, TheMachineRefusingIsAnEnvironmentErrorNamingTheFile) {
    EXPECT_FALSE(environment_failure(SQLITE_FULL).empty());
    EXPECT_FALSE(environment_failure(SQLITE_IOERR_WRITE).empty());
    EXPECT_FALSE(environment_failure(SQLITE_READONLY_DIRECTORY).empty());
    EXPECT_FALSE(environment_failure(SQLITE_BUSY).empty());
    EXPECT_FALSE(environment_failure(SQLITE_CORRUPT).empty());
    EXPECT_TRUE(environment_failure(SQLITE_ERROR).empty());  // malformed SQL: a bug
    EXPECT_TRUE(environment_failure(SQLITE_CONSTRAINT_UNIQUE).empty());
    EXPECT_TRUE(environment_failure(SQLITE_MISUSE).empty());

    test::TempDir dir;
    const std::string path = dir.file("r.db");
    {
        sqlite3* w = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &w), SQLITE_OK);
        exec_sql(w, "CREATE TABLE t (i INTEGER)");
        sqlite3_close(w);
    }
    sqlite3* r = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &r, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    const std::unique_ptr<sqlite3, int (*)(sqlite3*)> guard(r, sqlite3_close);
    try {
        Statement(r, "INSERT INTO t VALUES (1)").run();
        FAIL() << "no exception";
    } catch (const EnvironmentError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(std::filesystem::canonical(path).string() + ": cannot write", 0), 0u) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace memwall
