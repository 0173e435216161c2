// Tuning sessions for the tuner view, as results/tuning_store keeps them: each session's trials
// in the order evaluated with the best time so far, and the sessions grouped into studies (one
// kernel and problem tuned on one device and backend, with one kind of time), so that the
// strategies of a study overlay on one chart against one time axis.
#pragma once

#include <cstdint>
#include <vector>

#include <QString>

#include "results/tuning_store.hpp"

namespace memwall::gui {

struct TuningStep {
    int evaluation = 0;       // 1-based
    double seconds = 0;       // this evaluation's time; NaN when it failed
    double best_seconds = 0;  // best ok time so far; NaN before the first ok one
    QString config;           // "Br=32 Bc=64"
    QString status;           // "ok", or the failure: "runtime_failed: too many resources requested"
};

struct TuningTrace {
    std::int64_t session = 0;
    std::uint64_t seed = 0;
    QString strategy;
    QString name;  // "session 4 · guided · seed 1"
    std::vector<TuningStep> steps;
};

// A session's trace from its trials in evaluation order.
TuningTrace make_trace(const TuningSessionInfo& session, const std::vector<TrialRecord>& trials);

struct TuningStudy {
    QString kernel;           // "attention/flash", or a recording's kernel name
    QString problem;          // "seq_q=1024 seq_k=1024"; empty for a replay
    QString device, backend;  // backend "replay" for a recorded space
    QString time_label;       // what the times are: "measured", "recorded on <device>", "predicted (<device> roofline)"
    std::vector<TuningSessionSummary> sessions;  // oldest first

    // "attention/flash seq_q=1024 · <device> · cpu"
    QString name() const;
};

// Sessions grouped by device, backend, family, variant, problem and time source; studies in the
// order of their first session.
std::vector<TuningStudy> tuning_studies(const std::vector<TuningSessionSummary>& sessions);
// The study holding the newest session (the last started); -1 when there is none.
int newest_study(const std::vector<TuningStudy>& studies);
// The traces of a study's sessions, read from `store`.
std::vector<TuningTrace> study_traces(const Store& store, const TuningStudy& study);

}  // namespace memwall::gui
