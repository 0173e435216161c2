#include "results/tuning_store.hpp"

#include <sqlite3.h>

#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/owner.hpp"
#include "results/sqlite_statement.hpp"

namespace memwall {

namespace {

constexpr std::array<std::pair<TimeSource, std::string_view>, 3> kTimeSourceNames{{
    {TimeSource::measured, "measured"},
    {TimeSource::recorded, "recorded"},
    {TimeSource::predicted, "predicted"},
}};

constexpr const char* kSessionColumns =
    "s.id, s.started_at, s.finished_at, s.status, s.host, s.device, s.backend, s.family, s.variant, s.problem, "
    "s.strategy, s.seed, s.budget_evaluations, s.budget_seconds, s.budget_stale, s.time_source, s.source_file, "
    "s.space_size, s.stop_reason, s.git_revision, s.command_line, s.memwall_version, s.owner_pid, s.owner_start, "
    "s.heartbeat_at, s.anchor, s.anchor_seconds";

// The session's columns, then its trial count and its first best ok trial (index, seconds, config).
std::string session_query(const char* where) {
    return std::string("SELECT ") + kSessionColumns +
           ", (SELECT count(*) FROM tuning_trials t WHERE t.session_id = s.id)"
           ", b.idx, b.seconds, b.config FROM tuning_sessions s "
           "LEFT JOIN tuning_trials b ON b.session_id = s.id AND b.idx = ("
           "  SELECT t.idx FROM tuning_trials t WHERE t.session_id = s.id AND t.status = 'ok' "
           "  ORDER BY t.seconds, t.idx LIMIT 1) " +
           where;
}

TuningSessionSummary read_session(const Statement& st) {
    TuningSessionSummary out;
    TuningSessionInfo& s = out.info;
    s.id = st.int64(0);
    s.started_at = st.text(1);
    s.finished_at = st.text(2);
    const auto status = run_status_from(st.text(3));
    if (!status) throw InputError("unknown tuning session status '" + st.text(3) + "' in the database");
    s.status = *status;
    s.host = st.text(4);
    s.device = st.text(5);
    s.backend = st.text(6);
    s.family = st.text(7);
    s.variant = st.text(8);
    s.problem = st.text(9);
    s.strategy = st.text(10);
    s.seed = static_cast<std::uint64_t>(st.int64(11));
    s.budget_evaluations = st.int64(12);
    s.budget_seconds = st.real(13);
    s.budget_stale = st.int64(14);
    const auto source = time_source_from(st.text(15));
    if (!source) throw InputError("unknown time source '" + st.text(15) + "' in the database");
    s.time_source = *source;
    s.source_file = st.text(16);
    s.space_size = st.int64(17);
    s.stop_reason = st.text(18);
    s.git_revision = st.text(19);
    s.command_line = st.text(20);
    s.memwall_version = st.text(21);
    s.owner = {s.host, st.int64(22), st.text(23)};
    s.heartbeat_at = st.text(24);
    s.status = live_status(s.status, s.owner, s.started_at, s.heartbeat_at);
    s.anchor = st.text(25);
    if (!st.is_null(26)) s.anchor_seconds = st.real(26);
    out.trials = st.int64(27);
    if (!st.is_null(28)) {
        out.best_index = st.int64(28);
        out.best_seconds = st.real(29);
        out.best_config = st.text(30);
    }
    return out;
}

}  // namespace

std::string_view to_string(TimeSource s) {
    for (const auto& [source, name] : kTimeSourceNames)
        if (source == s) return name;
    return "unknown";
}

std::optional<TimeSource> time_source_from(std::string_view s) {
    for (const auto& [source, name] : kTimeSourceNames)
        if (name == s) return source;
    return std::nullopt;
}

std::int64_t begin_tuning_session(Store& store, TuningSessionInfo info) {
    if (info.started_at.empty()) info.started_at = utc_timestamp();
    if (info.owner.pid == 0) info.owner = Owner::self();
    Statement st(
        store.handle(),
        "INSERT INTO tuning_sessions (started_at, finished_at, status, host, device, backend, family, "
        "variant, problem, strategy, seed, budget_evaluations, budget_seconds, budget_stale, time_source, "
        "source_file, space_size, stop_reason, git_revision, command_line, memwall_version, owner_pid, "
        "owner_start, anchor, anchor_seconds) VALUES "
        "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, "
        "?23, ?24, ?25)");
    st.bind(1, info.started_at);
    st.bind_text_or_null(2, info.finished_at);
    st.bind(3, to_string(info.status)).bind(4, info.host).bind(5, info.device).bind(6, info.backend);
    st.bind(7, info.family).bind(8, info.variant).bind(9, info.problem).bind(10, info.strategy);
    // SQLite integers are signed: a seed above 2^63 is stored as its two's complement.
    st.bind(11, static_cast<std::int64_t>(info.seed));
    st.bind(12, info.budget_evaluations).bind(13, info.budget_seconds).bind(14, info.budget_stale);
    st.bind(15, to_string(info.time_source)).bind(16, info.source_file).bind(17, info.space_size);
    st.bind(18, info.stop_reason);
    st.bind_text_or_null(19, info.git_revision);
    st.bind(20, info.command_line).bind(21, info.memwall_version);
    st.bind(22, info.owner.pid).bind_text_or_null(23, info.owner.start);
    st.bind(24, info.anchor).bind(25, info.anchor_seconds);
    st.run();
    return sqlite3_last_insert_rowid(store.handle());
}

namespace {

// `what`: the caller, named in the messages.
void check_trial(const TrialRecord& t, const std::string& where, const char* what) {
    if ((t.status == "ok") != t.seconds.has_value())
        throw std::logic_error(std::string(what) + ": " + where + " must have a time exactly when ok");
    if (t.seconds && !std::isfinite(*t.seconds))
        throw std::logic_error(std::string(what) + ": non-finite time in " + where);
    if (t.measurements < 1) throw std::logic_error(std::string(what) + ": " + where + " has no measurement");
    for (double x : t.samples)
        if (!std::isfinite(x)) throw std::logic_error(std::string(what) + ": non-finite sample in " + where);
    for (const Counter& k : t.counters)
        if (!std::isfinite(k.value))
            throw std::logic_error(std::string(what) + ": counter " + k.name + " is not finite in " + where);
}

void insert_samples(sqlite3* db, std::int64_t session_id, const TrialRecord& t) {
    Statement sample(db, "INSERT INTO tuning_trial_samples (session_id, idx, sample, seconds) VALUES (?1, ?2, ?3, ?4)");
    for (std::size_t i = 0; i < t.samples.size(); ++i) {
        sample.reset();
        sample.bind(1, session_id).bind(2, t.index).bind(3, static_cast<std::int64_t>(i)).bind(4, t.samples[i]).run();
    }
}

std::string trial_name(std::int64_t session_id, const TrialRecord& t) {
    return "trial " + std::to_string(t.index) + " of tuning session " + std::to_string(session_id);
}

}  // namespace

void save_trial(Store& store, std::int64_t session_id, const TrialRecord& t) {
    const std::string where = trial_name(session_id, t);
    check_trial(t, where, "save_trial");
    sqlite3* db = store.handle();
    Transaction tx(db);
    Statement ins(db,
                  "INSERT INTO tuning_trials (session_id, idx, config, status, reason, seconds, cost_seconds, "
                  "elapsed_seconds, measurements) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    ins.bind(1, session_id).bind(2, t.index).bind(3, t.config).bind(4, t.status).bind(5, t.reason);
    ins.bind(6, t.seconds).bind(7, t.cost_seconds).bind(8, t.elapsed_seconds).bind(9, t.measurements);
    const int rc = ins.run(true);
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) throw std::logic_error("save_trial: " + where + " already saved");
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        throw std::logic_error("save_trial: no tuning session " + std::to_string(session_id));
    if (rc == SQLITE_CONSTRAINT_CHECK)
        throw std::logic_error("save_trial: unknown status '" + t.status + "' in " + where);
    if (rc != SQLITE_DONE) throw_sqlite_error(db, "save_trial");

    insert_samples(db, session_id, t);
    Statement counter(db,
                      "INSERT INTO tuning_trial_counters (session_id, idx, name, value, unit, source) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    for (const Counter& k : t.counters) {
        counter.reset();
        counter.bind(1, session_id).bind(2, t.index).bind(3, k.name).bind(4, k.value).bind(5, k.unit);
        counter.bind(6, to_string(k.source));
        if (counter.run(true) != SQLITE_DONE)
            throw std::logic_error("save_trial: counter " + k.name + " given twice in " + where);
    }
    Statement beat(db, "UPDATE tuning_sessions SET heartbeat_at = ?1 WHERE id = ?2");
    beat.bind(1, utc_timestamp()).bind(2, session_id).run();
    tx.commit();
}

void update_trial(Store& store, std::int64_t session_id, const TrialRecord& t) {
    const std::string where = trial_name(session_id, t);
    check_trial(t, where, "update_trial");
    sqlite3* db = store.handle();
    Transaction tx(db);
    Statement up(db,
                 "UPDATE tuning_trials SET status = ?3, reason = ?4, seconds = ?5, cost_seconds = ?6, "
                 "measurements = ?7 WHERE session_id = ?1 AND idx = ?2");
    up.bind(1, session_id).bind(2, t.index).bind(3, t.status).bind(4, t.reason).bind(5, t.seconds);
    up.bind(6, t.cost_seconds).bind(7, t.measurements);
    if (up.run(true) != SQLITE_DONE)
        throw std::logic_error("update_trial: unknown status '" + t.status + "' in " + where);
    if (sqlite3_changes(db) == 0) throw std::logic_error("update_trial: " + where + " is not stored");
    Statement drop(db, "DELETE FROM tuning_trial_samples WHERE session_id = ?1 AND idx = ?2");
    drop.bind(1, session_id).bind(2, t.index).run();
    insert_samples(db, session_id, t);
    tx.commit();
}

void finish_tuning_session(Store& store, std::int64_t session_id, RunStatus status, const std::string& stop_reason) {
    Statement st(store.handle(),
                 "UPDATE tuning_sessions SET finished_at = ?1, status = ?2, stop_reason = ?3 WHERE id = ?4");
    st.bind(1, utc_timestamp()).bind(2, to_string(status)).bind(3, stop_reason).bind(4, session_id).run();
    if (sqlite3_changes(store.handle()) == 0)
        throw std::logic_error("finish_tuning_session: no tuning session " + std::to_string(session_id));
    store.check_on_disk();
}

std::vector<TuningSessionSummary> tuning_sessions(const Store& store) {
    Statement st(store.handle(), session_query("ORDER BY s.started_at, s.id"));
    std::vector<TuningSessionSummary> out;
    while (st.step()) out.push_back(read_session(st));
    return out;
}

std::optional<TuningSessionSummary> tuning_session(const Store& store, std::int64_t session_id) {
    Statement st(store.handle(), session_query("WHERE s.id = ?1"));
    st.bind(1, session_id);
    if (!st.step()) return std::nullopt;
    return read_session(st);
}

std::vector<TrialRecord> trials(const Store& store, std::int64_t session_id, bool with_details) {
    sqlite3* db = store.handle();
    std::vector<TrialRecord> out;
    std::map<std::int64_t, std::size_t> index;
    Statement st(
        db,
        "SELECT idx, config, status, reason, seconds, cost_seconds, elapsed_seconds, measurements FROM tuning_trials "
        "WHERE session_id = ?1 ORDER BY idx");
    st.bind(1, session_id);
    while (st.step()) {
        TrialRecord t;
        t.index = st.int64(0);
        t.config = st.text(1);
        t.status = st.text(2);
        t.reason = st.text(3);
        if (!st.is_null(4)) t.seconds = st.real(4);
        t.cost_seconds = st.real(5);
        t.elapsed_seconds = st.real(6);
        t.measurements = st.int64(7);
        index[t.index] = out.size();
        out.push_back(std::move(t));
    }
    if (!with_details) return out;

    // Foreign keys keep samples and counters to existing trials in a file memwall wrote; a
    // damaged one can break that.
    auto trial_at = [&](std::int64_t idx) -> TrialRecord& {
        auto it = index.find(idx);
        if (it == index.end())
            throw InputError("tuning session " + std::to_string(session_id) + " in the database has details of trial " +
                             std::to_string(idx) + " but no such trial");
        return out[it->second];
    };
    Statement samples(db, "SELECT idx, seconds FROM tuning_trial_samples WHERE session_id = ?1 ORDER BY idx, sample");
    samples.bind(1, session_id);
    while (samples.step()) trial_at(samples.int64(0)).samples.push_back(samples.real(1));
    Statement counters(db,
                       "SELECT idx, name, value, unit, source FROM tuning_trial_counters WHERE session_id = ?1 "
                       "ORDER BY idx, name, source");
    counters.bind(1, session_id);
    while (counters.step()) {
        const std::string source = counters.text(4);
        const auto parsed = counter_source_from(source);
        if (!parsed) throw InputError("unknown counter source '" + source + "' in the database");
        trial_at(counters.int64(0))
            .counters.push_back(Counter{counters.text(1), counters.real(2), counters.text(3), *parsed});
    }
    return out;
}

std::optional<TunedConfig> best_tuned_config(const Store& store, const std::string& device, const std::string& backend,
                                             const std::string& family, const std::string& variant,
                                             const std::string& problem, bool include_abandoned) {
    Statement st(store.handle(),
                 "SELECT t.config, t.seconds, t.session_id, t.measurements, s.status, s.host, s.owner_pid, "
                 "s.owner_start, s.started_at, s.heartbeat_at FROM tuning_trials t "
                 "JOIN tuning_sessions s ON s.id = t.session_id "
                 "WHERE s.device = ?1 AND s.backend = ?2 AND s.family = ?3 AND s.variant = ?4 AND s.problem = ?5 "
                 "AND t.status = 'ok' ORDER BY t.seconds, s.started_at DESC, t.idx");
    st.bind(1, device).bind(2, backend).bind(3, family).bind(4, variant).bind(5, problem);
    for (;;) {
        if (!st.step()) return std::nullopt;
        if (include_abandoned || st.int64(3) > 1) break;  // confirmed: measured again
        const auto stored = run_status_from(st.text(4)).value_or(RunStatus::running);
        const Owner owner{st.text(5), st.int64(6), st.text(7)};
        if (live_status(stored, owner, st.text(8), st.text(9)) != RunStatus::abandoned) break;
    }
    Params config;
    try {
        config = Params::from_json(nlohmann::json::parse(st.text(0)));
    } catch (const nlohmann::json::exception&) {
        throw InputError(store.path() + ": tuning session " + std::to_string(st.int64(2)) +
                         " holds a malformed configuration: " + st.text(0));
    }
    return TunedConfig{std::move(config), st.real(1), st.int64(2)};
}

}  // namespace memwall
