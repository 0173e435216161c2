// Thin RAII wrappers over the SQLite C API: prepared statements with bound parameters, and
// transactions that roll back unless committed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <sqlite3.h>

namespace memwall {

// Throws for the last error on `db`: EnvironmentError "<database file>: <what went wrong>
// (<sqlite message>)" when the machine refused (read-only, full, locked, damaged, I/O, cannot
// open), else std::runtime_error "<what>: <sqlite message>", a bug.
[[noreturn]] void throw_sqlite_error(sqlite3* db, std::string_view what);

// The environment failure a SQLite result code stands for, in words; empty for the codes that
// mean a bug (a malformed statement, a misuse, a constraint the program should have kept).
std::string_view environment_failure(int code);

// Runs SQL without parameters (schema statements, pragmas with literal values); errors name
// `what`, or the SQL itself when `what` is empty.
void exec_sql(sqlite3* db, const char* sql, std::string_view what = {});

class Statement {
  public:
    Statement(sqlite3* db, std::string_view sql);
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    // Parameters are 1-based, as in SQLite.
    Statement& bind(int i, std::int64_t v);
    Statement& bind(int i, double v);
    Statement& bind(int i, std::string_view v);
    Statement& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
    Statement& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
    Statement& bind(int i, std::optional<double> v);
    Statement& bind_null(int i);
    // NULL for an empty string: optional text columns (finish time, git revision).
    Statement& bind_text_or_null(int i, std::string_view v) { return v.empty() ? bind_null(i) : bind(i, v); }

    // Advances to the next row; false when done. Throws on error.
    bool step();
    // Steps a statement that returns no rows; returns its SQLite result code (SQLITE_DONE or
    // a constraint code when `allow_constraint`), throws on any other error.
    int run(bool allow_constraint = false);
    void reset();

    // Columns are 0-based. NULL reads as 0 or empty.
    std::int64_t int64(int col) const;
    double real(int col) const;
    std::string text(int col) const;
    bool is_null(int col) const;

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction (takes the write lock up front, so a busy database waits
// in busy_timeout rather than failing at the first write); ROLLBACK unless commit() was called.
class Transaction {
  public:
    explicit Transaction(sqlite3* db);
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();
    void commit();

  private:
    sqlite3* db_;
    bool done_ = false;
};

}  // namespace memwall
