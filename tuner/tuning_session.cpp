#include "tuner/tuning_session.hpp"

#include <algorithm>

namespace memwall {

TrialRecord trial_record(const TuningSpace& space, const TraceEntry& entry, std::size_t index) {
    const Evaluation& e = entry.evaluation;
    TrialRecord t;
    t.index = static_cast<std::int64_t>(index);
    t.config = space.params(entry.config).canonical();
    t.status = std::string(to_string(e.status));
    t.reason = e.reason;
    if (e.ok()) t.seconds = e.seconds;
    t.cost_seconds = e.cost_seconds;
    t.elapsed_seconds = entry.elapsed_seconds;
    t.samples = e.samples;
    t.counters = e.counters;
    t.measurements = static_cast<std::int64_t>(std::max<std::size_t>(1, entry.times.size()));
    return t;
}

SessionRecorder::SessionRecorder(Store& store, TuningSessionInfo info, const TuningSpace& space)
    : store_(store), space_(space) {
    info.space_size = static_cast<std::int64_t>(space.size());
    id_ = begin_tuning_session(store_, std::move(info));
}

void SessionRecorder::record(const Trace& trace) {
    const std::size_t i = trace.entries.size() - 1;
    save_trial(store_, id_, trial_record(space_, trace.entries[i], i));
}

void SessionRecorder::update(const Trace& trace, std::size_t entry) {
    update_trial(store_, id_, trial_record(space_, trace.entries.at(entry), entry));
}

void SessionRecorder::finish(const Trace& trace) {
    const bool interrupted = trace.stop_reason == StopReason::interrupted;
    finish_tuning_session(store_, id_, interrupted ? RunStatus::interrupted : RunStatus::complete,
                          trace.stop_reason ? std::string(to_string(*trace.stop_reason)) : "");
}

std::string time_label(TimeSource source, const std::string& device) {
    switch (source) {
        case TimeSource::measured: return "";
        case TimeSource::recorded: return "recorded on " + device;
        case TimeSource::predicted: return "predicted (" + device + " roofline)";
    }
    return "";
}

}  // namespace memwall
