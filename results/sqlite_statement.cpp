#include "results/sqlite_statement.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/errors.hpp"

namespace memwall {

std::string_view environment_failure(int code) {
    switch (code & 0xff) {
        case SQLITE_READONLY: return "cannot write: the database file or its directory is read-only";
        case SQLITE_FULL: return "cannot write: the disk is full";
        case SQLITE_IOERR: return "input/output error";
        case SQLITE_BUSY:
        case SQLITE_LOCKED: return "the database stayed locked by another process beyond the busy timeout";
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB: return "the database file is damaged";
        case SQLITE_CANTOPEN: return "cannot open the database, its -wal or -shm file, or its directory";
        case SQLITE_PERM: return "permission denied";
        case SQLITE_NOMEM: return "out of memory";
        default: return {};
    }
}

void throw_sqlite_error(sqlite3* db, std::string_view what) {
    if (db) {
        std::string_view failure = environment_failure(sqlite3_extended_errcode(db));
        const int err = sqlite3_system_errno(db);
        // A full disk often shows first as an I/O error allocating the -shm or -wal file.
        if (!failure.empty() && (err == ENOSPC || err == EDQUOT)) failure = environment_failure(SQLITE_FULL);
        if (!failure.empty()) {
            const char* file = sqlite3_db_filename(db, "main");
            std::string msg = file && *file ? file : "the database";
            msg += ": ";
            msg += failure;
            msg += " (";
            msg += sqlite3_errmsg(db);
            if (err != 0) {
                msg += ": ";
                msg += std::strerror(err);
            }
            msg += ")";
            throw EnvironmentError(msg);
        }
    }
    std::string msg(what);
    msg += ": ";
    msg += db ? sqlite3_errmsg(db) : "out of memory";
    throw std::runtime_error(msg);
}

void exec_sql(sqlite3* db, const char* sql, std::string_view what) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
        throw_sqlite_error(db, what.empty() ? std::string_view(sql) : what);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK)
        throw_sqlite_error(db, "preparing \"" + std::string(sql) + "\"");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int i, std::int64_t v) {
    if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK) throw_sqlite_error(db_, "binding");
    return *this;
}

Statement& Statement::bind(int i, double v) {
    if (sqlite3_bind_double(stmt_, i, v) != SQLITE_OK) throw_sqlite_error(db_, "binding");
    return *this;
}

Statement& Statement::bind(int i, std::string_view v) {
    if (sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
        throw_sqlite_error(db_, "binding");
    return *this;
}

Statement& Statement::bind(int i, std::optional<double> v) { return v ? bind(i, *v) : bind_null(i); }

Statement& Statement::bind_null(int i) {
    if (sqlite3_bind_null(stmt_, i) != SQLITE_OK) throw_sqlite_error(db_, "binding");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw_sqlite_error(db_, sqlite3_sql(stmt_));
}

int Statement::run(bool allow_constraint) {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_DONE || (allow_constraint && (rc & 0xff) == SQLITE_CONSTRAINT)) return rc;
    throw_sqlite_error(db_, sqlite3_sql(stmt_));
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::int64(int col) const { return sqlite3_column_int64(stmt_, col); }

double Statement::real(int col) const { return sqlite3_column_double(stmt_, col); }

std::string Statement::text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    if (!p) return {};
    return std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
}

bool Statement::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

Transaction::Transaction(sqlite3* db) : db_(db) { exec_sql(db, "BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    exec_sql(db_, "COMMIT");
    done_ = true;
}

}  // namespace memwall
