// Tuning traces for the tuner view: for each session (one kernel and problem), each strategy's
// evaluations in order with the best time so far. Built from any ordered list of evaluation
// times: today from sweeps (the configurations of one problem in the order measured, an
// exhaustive search); the tuner's recorded sessions (tuner/tune.hpp's Trace) fill the same
// structure once they are stored in the database.
#pragma once

#include <vector>

#include <QStringList>

#include "gui/core/case_data.hpp"

namespace memwall::gui {

struct TuningStep {
    int evaluation = 0;    // 1-based
    double seconds = 0;    // this evaluation's time; NaN when it failed
    double best_seconds = 0;  // best ok time so far; NaN before the first ok one
    const CaseRow* row = nullptr;  // the case behind it, when it came from the database
};

struct TuningTrace {
    QString session, strategy;
    std::vector<TuningStep> steps;
};

// A trace from times in evaluation order (NaN for a failed evaluation); `rows` may be empty,
// else parallel to `seconds`.
TuningTrace make_trace(const QString& session, const QString& strategy, const std::vector<double>& seconds,
                       const std::vector<const CaseRow*>& rows = {});

// The strategy name of traces read from sweeps.
inline const QString kSweepStrategy = QStringLiteral("sweep (grid order)");

// One trace per kernel and problem (and run) that was measured with more than one tunable
// configuration.
std::vector<TuningTrace> sweep_traces(const std::vector<const CaseRow*>& rows);

// Session names in first-seen order.
QStringList sessions(const std::vector<TuningTrace>& traces);

}  // namespace memwall::gui
