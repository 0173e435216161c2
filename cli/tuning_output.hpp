// How stored tuning sessions are printed: by `memwall tune` when it finishes (read back from
// the database, as `run` prints its cases) and by `memwall show --tuning`. Every time carries
// its label: measured here, recorded on another device, or predicted from a named roofline.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "results/tuning_store.hpp"

namespace memwall::cli {

// "attention/flash/cpu", or "replay of <kernel>".
std::string session_kernel(const TuningSessionInfo& s);
// A time with its label: "41.2 ms", "1.20 us predicted (H100 SXM roofline)", "3.1 ms recorded on A100".
std::string labelled_time(const TuningSessionInfo& s, double seconds);

// "12.5%", "3.2%": a fraction as a percentage, one decimal below 10%.
std::string percent(double fraction);
// What the stopping rule last judged: after `evaluations`, the model's `chance` that an unmeasured
// configuration is more than `noise` faster than the best, a bound (the sum over them) that
// says nothing at 100%, beside the `stop_chance` it stops below.
std::string stopping_rule_line(std::size_t evaluations, double chance, double noise, double stop_chance);

// One row per trial (configuration, status and reason, time, best so far), then the best.
void print_trials(std::ostream& os, const TuningSessionSummary& s, const std::vector<TrialRecord>& trials);
void print_best(std::ostream& os, const TuningSessionSummary& s, const std::vector<TrialRecord>& trials);
// One row per session with its best configuration.
void print_tuning_sessions(std::ostream& os, const std::vector<TuningSessionSummary>& sessions);

}  // namespace memwall::cli
