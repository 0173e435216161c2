// Tuning sessions in the results database: one session per `memwall tune` (live or replayed),
// every trial in the order evaluated with its samples and counters, and the best configuration
// per (device, backend, family, variant, problem) that `memwall run --tuned` uses. Each trial is
// its own transaction, so a killed session loses at most the trial in flight.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "metrics/counter.hpp"
#include "results/store.hpp"

namespace memwall {

// Where a trial's time comes from: measured on this host, recorded on another device (replay
// of a recorded space), or predicted (a roofline for a named device, from emulated counters).
enum class TimeSource { measured, recorded, predicted };
std::string_view to_string(TimeSource s);
std::optional<TimeSource> time_source_from(std::string_view s);

struct TuningSessionInfo {
    std::int64_t id = 0;
    std::string started_at;   // set by begin_tuning_session when empty
    std::string finished_at;  // empty while running
    RunStatus status = RunStatus::running;
    std::string host, device, backend;  // backend "replay" for a recorded space
    std::string family, variant;        // for a replay: the recording's kernel name as variant
    std::string problem;                // canonical JSON of the problem parameters
    std::string strategy;
    std::uint64_t seed = 0;
    std::int64_t budget_evaluations = 0;  // 0: no limit
    double budget_seconds = 0;
    std::int64_t budget_stale = 0;
    TimeSource time_source = TimeSource::measured;
    std::string source_file;  // the recorded space replayed; empty when live
    // Live on a noisy backend: the configuration (canonical JSON) every one was timed beside,
    // sample for sample, and its time measured alone, which scales theirs; empty when timed alone.
    std::string anchor;
    std::optional<double> anchor_seconds;
    std::int64_t space_size = 0;
    std::string stop_reason;  // set by finish_tuning_session
    std::string git_revision, command_line, memwall_version;
    Owner owner;               // set by begin_tuning_session (this process) when its pid is 0
    std::string heartbeat_at;  // when its owner last stored a trial
};

// One evaluation. status is an EvalStatus name (ok, invalid, compile_failed, runtime_failed,
// failed); `seconds` is set exactly when ok.
struct TrialRecord {
    std::int64_t index = 0;  // 0-based, in the order evaluated
    std::string config;      // canonical JSON of the configuration
    std::string status = "ok";
    std::string reason;
    std::optional<double> seconds;
    double cost_seconds = 0;
    double elapsed_seconds = 0;
    std::vector<double> samples;
    std::vector<Counter> counters;
    // How often the configuration was measured: more than once when a live session confirmed it
    // (tuner/tune.hpp); `seconds` is then the median of the measurements' times, `samples` all
    // of their samples.
    std::int64_t measurements = 1;
};

struct TuningSessionSummary {
    TuningSessionInfo info;
    std::int64_t trials = 0;
    std::optional<std::int64_t> best_index;  // the first trial holding the best ok time
    std::optional<double> best_seconds;
    std::string best_config;
};

std::int64_t begin_tuning_session(Store& store, TuningSessionInfo info);
// Throws std::logic_error for an unknown session or a trial index already stored.
void save_trial(Store& store, std::int64_t session_id, const TrialRecord& trial);
// Replaces a stored trial's status, reason, time, cost, measurements and samples (its counters
// stay): a confirmation's result. Throws std::logic_error for a trial not stored.
void update_trial(Store& store, std::int64_t session_id, const TrialRecord& trial);
void finish_tuning_session(Store& store, std::int64_t session_id, RunStatus status, const std::string& stop_reason);

// Oldest first.
std::vector<TuningSessionSummary> tuning_sessions(const Store& store);
std::optional<TuningSessionSummary> tuning_session(const Store& store, std::int64_t session_id);
// In evaluation order; samples and counters included when asked.
std::vector<TrialRecord> trials(const Store& store, std::int64_t session_id, bool with_details = true);

// The fastest ok configuration any session found for this kernel and problem on this device
// and backend (so measured times are compared with measured ones, predicted with predicted),
// or nullopt. An unconfirmed trial (measured once) of an abandoned session (killed before it
// could confirm its best) is passed over unless `include_abandoned`. Throws InputError when
// the stored configuration is malformed.
struct TunedConfig {
    Params config;
    double seconds = 0;
    std::int64_t session_id = 0;
};
std::optional<TunedConfig> best_tuned_config(const Store& store, const std::string& device, const std::string& backend,
                                             const std::string& family, const std::string& variant,
                                             const std::string& problem, bool include_abandoned = false);

}  // namespace memwall
