#include "results/migrations.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "results/sqlite_statement.hpp"
#include "results/store.hpp"

namespace memwall {

namespace {

// Version 1: the initial schema. Indexes serve the CLI's and the GUI's queries: cases of a run
// (the UNIQUE key's index), cases of one kernel across runs, failures, samples and counters of
// a case (their primary keys), runs of a host over time, runs by tag.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE runs (
    id              INTEGER PRIMARY KEY,
    started_at      TEXT NOT NULL,
    finished_at     TEXT,
    status          TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted')),
    host            TEXT NOT NULL,
    backend         TEXT NOT NULL,
    device          TEXT NOT NULL,
    git_revision    TEXT,
    command_line    TEXT NOT NULL,
    memwall_version TEXT NOT NULL,
    sweep           TEXT NOT NULL
);
CREATE INDEX runs_by_host ON runs (host, started_at);

CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX run_tags_by_value ON run_tags (key, value);

CREATE TABLE cases (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    family      TEXT NOT NULL,
    variant     TEXT NOT NULL,
    backend     TEXT NOT NULL,
    problem     TEXT NOT NULL,
    config      TEXT NOT NULL,
    status      TEXT NOT NULL
                CHECK (status IN ('ok', 'wrong_result', 'failed', 'timeout', 'skipped')),
    message     TEXT NOT NULL DEFAULT '',
    measured_at TEXT NOT NULL,
    n_samples   INTEGER NOT NULL DEFAULT 0,
    time_median REAL,
    time_min    REAL,
    time_max    REAL,
    time_mean   REAL,
    time_stddev REAL,
    time_q1     REAL,
    time_q3     REAL,
    UNIQUE (run_id, family, variant, backend, problem, config)
);
CREATE INDEX cases_by_kernel ON cases (family, variant, backend);
CREATE INDEX cases_by_status ON cases (status);

CREATE TABLE samples (
    case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
    rep     INTEGER NOT NULL,
    idx     INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (case_id, rep, idx)
) WITHOUT ROWID;

CREATE TABLE counters (
    case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    value   REAL NOT NULL,
    unit    TEXT NOT NULL,
    source  TEXT NOT NULL CHECK (source IN ('cupti', 'perf', 'emu', 'model')),
    PRIMARY KEY (case_id, name, source)
);

CREATE TABLE ceilings (
    run_id         INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('bandwidth', 'compute')),
    value          REAL NOT NULL,
    unit           TEXT NOT NULL,
    method         TEXT NOT NULL,
    capacity_bytes REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, name)
);
)sql";

constexpr std::array kMigrations{
    Migration{1, "create the schema", kSchemaV1},
};

}  // namespace

int user_version(sqlite3* db) {
    Statement st(db, "PRAGMA user_version");
    st.step();
    return static_cast<int>(st.int64(0));
}

std::span<const Migration> migrations() { return kMigrations; }

void migrate(sqlite3* db, int from, int to) {
    for (const Migration& m : kMigrations) {
        if (m.version <= from || m.version > to) continue;
        Transaction tx(db);
        // Another process may have migrated since this one read the version.
        if (user_version(db) >= m.version) continue;
        const std::string what = "migrating to schema " + std::to_string(m.version) + " (" + std::string(m.what) + ")";
        exec_sql(db, m.sql, what);
        // Pragmas take no bound parameters; both values are integers from this program.
        const std::string stamp = "PRAGMA user_version = " + std::to_string(m.version) +
                                  "; PRAGMA application_id = " + std::to_string(Store::application_id);
        exec_sql(db, stamp.c_str(), what);
        tx.commit();
    }
}

}  // namespace memwall
