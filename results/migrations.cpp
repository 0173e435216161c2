#include "results/migrations.hpp"

#include <array>
#include <optional>
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

// Version 2: properties of the device a run measured on; tuning sessions with every trial
// (configuration, status, samples, counters); tune-eval score tables. A trial's `seconds` is
// what the strategy optimised; `time_source` says whether it was measured here, recorded
// elsewhere (replay), or predicted (a roofline for a named device, from emulated counters).
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE run_properties (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE TABLE tuning_sessions (
    id              INTEGER PRIMARY KEY,
    started_at      TEXT NOT NULL,
    finished_at     TEXT,
    status          TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted')),
    host            TEXT NOT NULL,
    device          TEXT NOT NULL,
    backend         TEXT NOT NULL,
    family          TEXT NOT NULL,
    variant         TEXT NOT NULL,
    problem         TEXT NOT NULL,
    strategy        TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    budget_evaluations INTEGER NOT NULL DEFAULT 0,
    budget_seconds  REAL NOT NULL DEFAULT 0,
    budget_stale    INTEGER NOT NULL DEFAULT 0,
    time_source     TEXT NOT NULL CHECK (time_source IN ('measured', 'recorded', 'predicted')),
    source_file     TEXT NOT NULL DEFAULT '',
    space_size      INTEGER NOT NULL DEFAULT 0,
    stop_reason     TEXT NOT NULL DEFAULT '',
    git_revision    TEXT,
    command_line    TEXT NOT NULL,
    memwall_version TEXT NOT NULL
);
CREATE INDEX tuning_sessions_by_kernel ON tuning_sessions (device, backend, family, variant, problem);

CREATE TABLE tuning_trials (
    session_id      INTEGER NOT NULL REFERENCES tuning_sessions (id) ON DELETE CASCADE,
    idx             INTEGER NOT NULL,
    config          TEXT NOT NULL,
    status          TEXT NOT NULL
                    CHECK (status IN ('ok', 'invalid', 'compile_failed', 'runtime_failed', 'failed')),
    reason          TEXT NOT NULL DEFAULT '',
    seconds         REAL,
    cost_seconds    REAL NOT NULL DEFAULT 0,
    elapsed_seconds REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, idx),
    CHECK ((status = 'ok') = (seconds IS NOT NULL))
) WITHOUT ROWID;

CREATE TABLE tuning_trial_samples (
    session_id INTEGER NOT NULL,
    idx        INTEGER NOT NULL,
    sample     INTEGER NOT NULL,
    seconds    REAL NOT NULL,
    PRIMARY KEY (session_id, idx, sample),
    FOREIGN KEY (session_id, idx) REFERENCES tuning_trials (session_id, idx) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE tuning_trial_counters (
    session_id INTEGER NOT NULL,
    idx        INTEGER NOT NULL,
    name       TEXT NOT NULL,
    value      REAL NOT NULL,
    unit       TEXT NOT NULL,
    source     TEXT NOT NULL CHECK (source IN ('cupti', 'perf', 'emu', 'model')),
    PRIMARY KEY (session_id, idx, name, source),
    FOREIGN KEY (session_id, idx) REFERENCES tuning_trials (session_id, idx) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE tune_evals (
    id              INTEGER PRIMARY KEY,
    created_at      TEXT NOT NULL,
    host            TEXT NOT NULL,
    seeds           INTEGER NOT NULL,
    git_revision    TEXT,
    command_line    TEXT NOT NULL,
    memwall_version TEXT NOT NULL
);

CREATE TABLE tune_eval_spaces (
    eval_id         INTEGER NOT NULL REFERENCES tune_evals (id) ON DELETE CASCADE,
    space           TEXT NOT NULL,
    device          TEXT NOT NULL,
    kernel          TEXT NOT NULL,
    size            INTEGER NOT NULL,
    ok              INTEGER NOT NULL,
    optimum_seconds REAL NOT NULL,
    median_seconds  REAL NOT NULL,
    budget          INTEGER NOT NULL,
    random_within10 REAL NOT NULL,
    random_within5  REAL NOT NULL,
    random_optimum  REAL NOT NULL,
    has_counters    INTEGER NOT NULL,
    PRIMARY KEY (eval_id, space)
) WITHOUT ROWID;

-- Quartiles of evaluations needed are NULL when infinite (fewer than that share of seeds got there).
CREATE TABLE tune_eval_scores (
    eval_id          INTEGER NOT NULL,
    space            TEXT NOT NULL,
    strategy         TEXT NOT NULL,
    score            REAL NOT NULL,
    score_sd         REAL NOT NULL,
    within10_q1      REAL, within10_median REAL, within10_q3 REAL, within10_reached INTEGER NOT NULL,
    within5_q1       REAL, within5_median  REAL, within5_q3  REAL, within5_reached  INTEGER NOT NULL,
    optimum_q1       REAL, optimum_median  REAL, optimum_q3  REAL, optimum_reached  INTEGER NOT NULL,
    strategy_seconds REAL NOT NULL,
    PRIMARY KEY (eval_id, space, strategy),
    FOREIGN KEY (eval_id, space) REFERENCES tune_eval_spaces (eval_id, space) ON DELETE CASCADE
) WITHOUT ROWID;
)sql";

// Version 3: a configuration a live session measured again before choosing its best
// (tuner/tune.hpp's confirmation) records how often; its time is the median of their times.
constexpr const char* kSchemaV3 = R"sql(
ALTER TABLE tuning_trials ADD COLUMN measurements INTEGER NOT NULL DEFAULT 1 CHECK (measurements >= 1);
)sql";

// Version 4: the axes of a run's sweep, with kind and role, so that a reader keeps the
// parameters of its cases typed (a boolean is not the integer it is stored as).
constexpr const char* kSchemaV4 = R"sql(
CREATE TABLE run_axes (
    run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    family      TEXT NOT NULL,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('int', 'real', 'bool', 'enum')),
    role        TEXT NOT NULL CHECK (role IN ('problem', 'tunable')),
    description TEXT NOT NULL DEFAULT '',
    choices     TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (run_id, family, name)
) WITHOUT ROWID;
)sql";

// Version 5: owners of runs and tuning sessions, so a killed one shows as abandoned, not running; and
// why each case's sampling stopped, so one cut short by the time limit is marked.
constexpr const char* kSchemaV5 = R"sql(
ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_start TEXT;
ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;
ALTER TABLE tuning_sessions ADD COLUMN owner_pid INTEGER;
ALTER TABLE tuning_sessions ADD COLUMN owner_start TEXT;
ALTER TABLE tuning_sessions ADD COLUMN heartbeat_at TEXT;
ALTER TABLE cases ADD COLUMN sampling_stop TEXT NOT NULL DEFAULT '';
)sql";

// Version 6: whether each ceiling can be trusted (the reason when not) and, for ceilings a
// run reused, the run that measured them (NULL: measured for this run). Reused ceilings stored
// before kept that run in their method text, once more with every reuse ("(reused from run 2)
// (reused from run 3)"): the first, the run that measured them, moves to its column and the
// method is the measured one again.
constexpr const char* kSchemaCeilingTrust = R"sql(
ALTER TABLE ceilings ADD COLUMN unreliable TEXT NOT NULL DEFAULT '';
ALTER TABLE ceilings ADD COLUMN reused_from_run INTEGER;
UPDATE ceilings SET
    reused_from_run = CAST(substr(method, instr(method, ' (reused from run ') + 18) AS INTEGER),
    method = substr(method, 1, instr(method, ' (reused from run ') - 1)
WHERE instr(method, ' (reused from run ') > 0;
)sql";

// Version 7: counters may come from a timer (a phase of a run a variant timed itself, such as
// spgemm's symbolic phase), which the source check of version 1 refuses. SQLite cannot change a
// CHECK in place: both counter tables are rebuilt under the same names.
constexpr const char* kSchemaTimerSource = R"sql(
CREATE TABLE counters_v7 (
    case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    value   REAL NOT NULL,
    unit    TEXT NOT NULL,
    source  TEXT NOT NULL CHECK (source IN ('cupti', 'perf', 'emu', 'model', 'timer')),
    PRIMARY KEY (case_id, name, source)
);
INSERT INTO counters_v7 SELECT case_id, name, value, unit, source FROM counters;
DROP TABLE counters;
ALTER TABLE counters_v7 RENAME TO counters;

CREATE TABLE tuning_trial_counters_v7 (
    session_id INTEGER NOT NULL,
    idx        INTEGER NOT NULL,
    name       TEXT NOT NULL,
    value      REAL NOT NULL,
    unit       TEXT NOT NULL,
    source     TEXT NOT NULL CHECK (source IN ('cupti', 'perf', 'emu', 'model', 'timer')),
    PRIMARY KEY (session_id, idx, name, source),
    FOREIGN KEY (session_id, idx) REFERENCES tuning_trials (session_id, idx) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO tuning_trial_counters_v7 SELECT session_id, idx, name, value, unit, source FROM tuning_trial_counters;
DROP TABLE tuning_trial_counters;
ALTER TABLE tuning_trial_counters_v7 RENAME TO tuning_trial_counters;
)sql";

// Version 8: tune-eval may replay with the stopping rule on (its chance, 0 for off); each
// strategy's row then says where the rule stopped its runs.
constexpr const char* kSchemaTuneEvalStops = R"sql(
ALTER TABLE tune_evals ADD COLUMN stop_chance REAL NOT NULL DEFAULT 0 CHECK (stop_chance >= 0 AND stop_chance <= 1);
ALTER TABLE tune_eval_scores ADD COLUMN stopped_q1 REAL;
ALTER TABLE tune_eval_scores ADD COLUMN stopped_median REAL;
ALTER TABLE tune_eval_scores ADD COLUMN stopped_q3 REAL;
ALTER TABLE tune_eval_scores ADD COLUMN stopped_reached INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 9: a strategy read with a prior is compared with its prior-free twin (the ratio of
// their median evaluations to within 10%, with its bootstrap interval; NULL: infinite).
constexpr const char* kSchemaTuneEvalVersus = R"sql(
ALTER TABLE tune_eval_scores ADD COLUMN versus TEXT;
ALTER TABLE tune_eval_scores ADD COLUMN versus_ratio REAL;
ALTER TABLE tune_eval_scores ADD COLUMN versus_lo REAL;
ALTER TABLE tune_eval_scores ADD COLUMN versus_hi REAL;
)sql";

// Version 10: a live session on a noisy backend times every configuration beside an anchor
// configuration (canonical JSON; '' when timed alone), whose time measured alone scales them all.
constexpr const char* kSchemaTuningAnchor = R"sql(
ALTER TABLE tuning_sessions ADD COLUMN anchor TEXT NOT NULL DEFAULT '';
ALTER TABLE tuning_sessions ADD COLUMN anchor_seconds REAL CHECK (anchor_seconds > 0);
)sql";

// Version 11: a case may be `unchecked` (it ran and was timed, with no reference to compare
// against: a benchmark declared without one, or a run imported from another harness). SQLite
// cannot change a CHECK in place: the cases table is rebuilt under its name, its ids kept, so
// the samples and counters that reference them stay theirs (migrate turns foreign keys off, as
// SQLite's procedure for such changes asks).
constexpr const char* kSchemaUnchecked = R"sql(
CREATE TABLE cases_v11 (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    family        TEXT NOT NULL,
    variant       TEXT NOT NULL,
    backend       TEXT NOT NULL,
    problem       TEXT NOT NULL,
    config        TEXT NOT NULL,
    status        TEXT NOT NULL
                  CHECK (status IN ('ok', 'wrong_result', 'failed', 'timeout', 'skipped', 'unchecked')),
    message       TEXT NOT NULL DEFAULT '',
    measured_at   TEXT NOT NULL,
    n_samples     INTEGER NOT NULL DEFAULT 0,
    time_median   REAL,
    time_min      REAL,
    time_max      REAL,
    time_mean     REAL,
    time_stddev   REAL,
    time_q1       REAL,
    time_q3       REAL,
    sampling_stop TEXT NOT NULL DEFAULT '',
    UNIQUE (run_id, family, variant, backend, problem, config)
);
INSERT INTO cases_v11 SELECT id, run_id, family, variant, backend, problem, config, status, message, measured_at,
    n_samples, time_median, time_min, time_max, time_mean, time_stddev, time_q1, time_q3, sampling_stop FROM cases;
DROP TABLE cases;
ALTER TABLE cases_v11 RENAME TO cases;
CREATE INDEX cases_by_kernel ON cases (family, variant, backend);
CREATE INDEX cases_by_status ON cases (status);
UPDATE cases SET status = 'unchecked'
WHERE status = 'ok' AND run_id IN (SELECT run_id FROM run_tags WHERE key = 'imported');
)sql";

constexpr std::array kMigrations{
    Migration{1, "create the schema", kSchemaV1},
    Migration{2, "device properties, tuning sessions and tune-eval scores", kSchemaV2},
    Migration{3, "measurements per tuning trial", kSchemaV3},
    Migration{4, "the axes of each run", kSchemaV4},
    Migration{5, "owners of runs and tuning sessions, why sampling stopped", kSchemaV5},
    Migration{6, "trust and provenance of ceilings", kSchemaCeilingTrust},
    Migration{7, "counters timed by the variant (source timer)", kSchemaTimerSource},
    Migration{8, "where tune-eval's stopping rule stopped each strategy", kSchemaTuneEvalStops},
    Migration{9, "tune-eval compares a strategy with a prior with its prior-free twin", kSchemaTuneEvalVersus},
    Migration{10, "the anchor a tuning session timed its configurations beside", kSchemaTuningAnchor},
    Migration{11, "cases stored unchecked (no reference to compare against)", kSchemaUnchecked},
};

}  // namespace

int user_version(sqlite3* db) {
    Statement st(db, "PRAGMA user_version");
    st.step();
    return static_cast<int>(st.int64(0));
}

std::span<const Migration> migrations() { return kMigrations; }

void migrate(sqlite3* db, int from, int to) {
    // A new database is made in one transaction: killed while it is made, it stays blank and the
    // next command makes it afresh, where it stayed at the schema reached ("schema 6 is older
    // than this memwall's 10" for a database no older memwall wrote).
    // Foreign keys off while tables are rebuilt (version 11), so dropping one cascades nothing;
    // each step is checked before it commits, and the setting restored after. The pragma is a
    // no-op inside a transaction: it is set first.
    const bool keys_on = [db] {
        Statement keys(db, "PRAGMA foreign_keys");  // finalized before the pragma below
        keys.step();
        return keys.int64(0) != 0;
    }();
    struct KeysRestored {
        sqlite3* db;
        bool on;
        ~KeysRestored() {
            if (on) sqlite3_exec(db, "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
        }
    } keys_restored{db, keys_on};
    exec_sql(db, "PRAGMA foreign_keys = OFF");
    std::optional<Transaction> whole;
    if (from == 0) whole.emplace(db);
    for (const Migration& m : kMigrations) {
        if (m.version <= from || m.version > to) continue;
        std::optional<Transaction> step;
        if (!whole) step.emplace(db);
        // Another process may have migrated since this one read the version.
        if (user_version(db) >= m.version) continue;
        const std::string what = "migrating to schema " + std::to_string(m.version) + " (" + std::string(m.what) + ")";
        exec_sql(db, m.sql, what);
        // Pragmas take no bound parameters; both values are integers from this program.
        const std::string stamp = "PRAGMA user_version = " + std::to_string(m.version) +
                                  "; PRAGMA application_id = " + std::to_string(Store::kApplicationId);
        exec_sql(db, stamp.c_str(), what);
        if (Statement broken(db, "PRAGMA foreign_key_check"); broken.step())
            throw std::runtime_error(what + ": it broke a foreign key of table " + broken.text(0));
        if (step) step->commit();
    }
    if (whole) whole->commit();
}

}  // namespace memwall
