// The results database: SQLite in WAL mode, schema version in PRAGMA user_version, forward
// migrations, and a PRAGMA application_id that tells memwall databases from other files.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/axis.hpp"
#include "core/owner.hpp"
#include "metrics/ceilings.hpp"
#include "metrics/counter.hpp"
#include "stats/statistics.hpp"

struct sqlite3;

namespace memwall {

// unchecked: the case ran and was timed with no reference to compare against (a benchmark
// declared without one, a run imported from another harness); compare, ci and tune refuse it
// unless allowed.
enum class CaseStatus { ok, wrong_result, failed, timeout, skipped, unchecked };
std::string_view to_string(CaseStatus s);
std::optional<CaseStatus> case_status_from(std::string_view s);
// The case ran to its samples: ok or unchecked.
inline bool ran(CaseStatus s) { return s == CaseStatus::ok || s == CaseStatus::unchecked; }

// abandoned is never stored: a run (or tuning session) stored as running whose owner process
// is gone (killed, crashed) reads as abandoned (core/owner.hpp).
enum class RunStatus { running, complete, interrupted, abandoned };
std::string_view to_string(RunStatus s);
std::optional<RunStatus> run_status_from(std::string_view s);

// Now, as stored in the database: ISO 8601 UTC with milliseconds (2024-05-01T12:34:56.789Z).
std::string utc_timestamp();

// An axis of a run's sweep as stored with it, so readers keep its cases' parameters typed.
struct RunAxis {
    std::string family, name;
    AxisKind kind = AxisKind::integer;
    AxisRole role = AxisRole::problem;
    std::string description;
    std::vector<std::string> choices;  // of an enum axis, in their order
    bool operator==(const RunAxis&) const = default;
};

struct RunInfo {
    std::int64_t id = 0;
    std::string started_at;   // ISO 8601 UTC, set by begin_run when empty
    std::string finished_at;  // empty while running
    RunStatus status = RunStatus::running;
    std::string host;
    std::string backend;       // comma-separated when a sweep spans several
    std::string device;        // CPU model and cores, GPU name, ...
    std::string git_revision;  // empty when unknown
    std::string command_line;
    std::string memwall_version;
    std::string sweep;  // JSON description of the sweep, so --resume can re-expand it
    std::map<std::string, std::string> tags;
    std::vector<RunAxis> axes;  // empty for runs stored before schema 4
    Owner owner;                // set by begin_run (this process) when its pid is 0
    std::string heartbeat_at;   // when its owner last stored a case; empty before one
};

// running, unless stored as running by an owner that is gone: abandoned. Runs and tuning
// sessions of another host that show no heartbeat for an hour are abandoned too.
RunStatus live_status(RunStatus stored, const Owner& owner, const std::string& started_at,
                      const std::string& heartbeat_at);

// Why a case's sampling stopped (harness/sampler.hpp).
namespace sampling_stop {
inline constexpr const char* kConverged = "converged";
inline constexpr const char* kMaxSamples = "max samples";
inline constexpr const char* kTimeLimit = "time limit";
// The time limit came before --min-samples: fewer samples than asked, marked in tables.
inline constexpr const char* kTimeLimitBeforeMin = "time limit before min samples";
// Sampling ended with fewer than --min-samples whose threads ran when they could (the rest
// waited on a busy host, and were discarded): the times are doubtful, marked in tables and
// never judged SLOWER or FASTER by compare.
inline constexpr const char* kHostBusy = "host busy";
}  // namespace sampling_stop

// A case's identity inside a run.
struct CaseKey {
    std::string family, variant, backend;
    std::string problem;  // canonical JSON of the problem parameters
    std::string config;   // canonical JSON of the tunable configuration
    auto operator<=>(const CaseKey&) const = default;
};

struct CaseRecord {
    std::int64_t id = 0;
    std::int64_t run_id = 0;
    CaseKey key;
    CaseStatus status = CaseStatus::ok;
    std::string message;
    std::string measured_at;
    // samples[r] holds the per-execution times (seconds) of repetition r.
    std::vector<std::vector<double>> samples;
    Summary summary;  // over all samples; n == 0 when not timed
    std::vector<Counter> counters;
    // Why sampling stopped (one of sampling_stop's); empty when not timed.
    std::string sampling_stop;
    // Timed beside an anchor (MeasureOptions::anchor): its samples, anchor_samples[i] taken back
    // to back with samples[0][i]. Not stored with the case.
    std::vector<double> anchor_samples;

    // Sampled while the host was too busy to trust its times (sampling_stop::kHostBusy).
    bool host_busy() const { return sampling_stop == sampling_stop::kHostBusy; }
};

class Store {
  public:
    enum class Mode {
        read_only,   // the file must exist and be a memwall database
        read_write,  // the file must exist; migrated forward if older
        create,      // created when missing; migrated forward if older
    };
    static constexpr int kSchemaVersionLatest = 11;
    static constexpr std::int32_t kApplicationId = 0x4d574c4c;  // "MWLL"

    // Throws InputError, leaving the file untouched, when it is missing (read_only,
    // read_write), not SQLite, SQLite but not memwall's, of a newer schema, or lacks a table or
    // column of its schema; EnvironmentError when it is a directory, cannot be opened, or (to
    // write) it or its directory is read-only.
    static Store open(const std::string& path, Mode mode);
    // The database file and those SQLite keeps beside it (-wal, -shm, -journal), the first
    // being the database: what no output file may replace.
    static std::vector<std::string> files(const std::string& path);

    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    ~Store();

    int schema_version() const;
    const std::string& path() const { return path_; }

    // Runs
    std::int64_t begin_run(RunInfo info);
    // A run resumed by this process: it becomes its owner, and the run is running again.
    void claim_run(std::int64_t run_id);
    // Ends the run with `status`, then check_on_disk: a run ends only once what it stored is known
    // to be on disk.
    void finish_run(std::int64_t run_id, RunStatus status);
    // Throws EnvironmentError when the database file was deleted, moved or replaced since it was
    // opened (its directory removed mid-run): every write since went to a file no one can open
    // again, and SQLite reports no error for it.
    void check_on_disk() const;
    void set_tag(std::int64_t run_id, const std::string& key, const std::string& value);
    std::vector<RunInfo> runs() const;  // oldest first
    std::optional<RunInfo> run(std::int64_t run_id) const;
    std::optional<RunInfo> latest_run() const;
    // Run ids whose tag `key` has `value`, oldest first.
    std::vector<std::int64_t> runs_tagged(const std::string& key, const std::string& value) const;
    // What the run measured on (device name, SMs, clocks, caches, ...), key to value; a second
    // call replaces the run's properties.
    void set_run_properties(std::int64_t run_id, const std::map<std::string, std::string>& properties);
    std::map<std::string, std::string> run_properties(std::int64_t run_id) const;

    // Ceilings, with their reliability flags and, for reused ones, the run that measured them.
    void save_ceilings(std::int64_t run_id, const Ceilings& c);
    Ceilings ceilings(std::int64_t run_id) const;
    // The newest run on `host` for `backend` with ceilings measured for it (none reused from
    // another run), if any; with `reliable_only`, none of them flagged unreliable either.
    std::optional<std::int64_t> latest_measured_ceilings_run(const std::string& host, const std::string& backend,
                                                             bool reliable_only) const;

    // Cases. save_case writes the case, its samples and counters in one transaction, so a
    // killed sweep loses at most the case in flight. A second save of the same key in the same
    // run throws std::logic_error. The stored summary is computed here from c.samples (so the
    // two never disagree; c.summary is not read); measured_at is set to now when empty.
    std::int64_t save_case(const CaseRecord& c);
    // Saves each case in place of the one of its key in its run, if any, all in one transaction:
    // a case measured repetition by repetition (ci --baseline-build), both builds' sides of a
    // pair together, so a killed measurement loses at most the pair in flight.
    void replace_cases(const std::vector<CaseRecord>& cases);
    std::set<CaseKey> case_keys(std::int64_t run_id) const;
    std::vector<CaseRecord> cases(std::int64_t run_id, bool with_samples = true) const;
    std::size_t case_count(std::int64_t run_id) const;
    // Deletes the run's cases whose status is one of `statuses` (with their samples and
    // counters), so `run --resume --retry-failed` measures them again; returns how many.
    std::size_t remove_cases(std::int64_t run_id, const std::set<CaseStatus>& statuses);
    // Cases of a run with id > after_id, at most `limit` (0: all), in the order measured, with
    // their counters and without samples: pages for an explorer that shows a large run while it
    // loads (each a range scan on a primary key).
    std::vector<CaseRecord> case_page(std::int64_t run_id, std::int64_t after_id, std::size_t limit) const;
    // Every sample of a run's cases by case id (samples[r] per repetition), in one range scan.
    std::unordered_map<std::int64_t, std::vector<std::vector<double>>> run_samples(std::int64_t run_id) const;
    // Every counter of a run's cases by case id.
    std::unordered_map<std::int64_t, std::vector<Counter>> run_counters(std::int64_t run_id) const;

    // The connection, for the SQL of results/ alone (cmake/CheckLayers.cmake keeps sqlite3.h
    // and results/sqlite_statement.hpp there).
    sqlite3* handle() const { return db_; }

  private:
    Store(sqlite3* db, std::string path);
    std::int64_t insert_case(const CaseRecord& c);  // save_case without its transaction
    sqlite3* db_ = nullptr;
    std::string path_;
};

}  // namespace memwall
