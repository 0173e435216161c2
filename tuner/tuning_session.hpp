// A tuning session in the results database as it runs: the session row first, then every
// evaluation committed as it completes (TuneHooks::evaluated), so a killed tune loses at most
// the trial in flight; the stop reason and status at the end.
#pragma once

#include <cstdint>
#include <string>

#include "results/tuning_store.hpp"
#include "tuner/tune.hpp"

namespace memwall {

// The trial stored for one trace entry: configuration as canonical JSON, status, reason,
// time (only when ok), samples, counters and number of measurements.
TrialRecord trial_record(const TuningSpace& space, const TraceEntry& entry, std::size_t index);

class SessionRecorder {
  public:
    // Begins the session; `info.space_size` is taken from `space`.
    SessionRecorder(Store& store, TuningSessionInfo info, const TuningSpace& space);

    std::int64_t id() const { return id_; }
    // Saves the newest entry of `trace`.
    void record(const Trace& trace);
    // Stores a confirmation's update of entry `entry` (TuneHooks::confirmed).
    void update(const Trace& trace, std::size_t entry);
    // Marks the session complete, or interrupted when the trace stopped on "interrupted".
    void finish(const Trace& trace);

  private:
    Store& store_;
    const TuningSpace& space_;
    std::int64_t id_ = 0;
};

// How a time of the session is labelled wherever it is shown: "" when measured here,
// "recorded on <device>" for a replay, "predicted (<device> roofline)" for a prediction.
std::string time_label(TimeSource source, const std::string& device);

}  // namespace memwall
