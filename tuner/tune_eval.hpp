// tune-eval: every strategy replayed over every recorded space with many seeds, scored against
// the exact random-search baseline (Willemsen et al.), with the evaluations each run needed to
// get within 10% and 5% of the optimum and to the optimum. Strategies that read a Prior (guided)
// are given the recording's device-independent counters and the other devices' recordings of the
// same kernel among `priors`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "results/tune_eval_table.hpp"
#include "tuner/recorded_space.hpp"

namespace memwall {

struct TuneEvalOptions {
    std::size_t seeds = 100;
    std::uint64_t first_seed = 1;   // seeds first_seed, first_seed + 1, ...
    double budget_fraction = 0.95;  // of the way from the median to the optimum
    // Evaluations per run at most; 0: until the optimum is found (and at least the budget).
    std::size_t max_evaluations = 0;
    // The stopping rule (Budget::stop_chance), as `memwall tune` runs it: each run ends where it
    // stops it, if before the run's other end; 0: off.
    double stop_chance = 0;
    int threads = 0;                       // 0: OpenMP's default
    std::function<void(double)> progress;  // fraction of runs done; may be empty
    // Recordings of the same kernels on other devices: each space is given those that tune the
    // same parameters on another device.
    std::vector<const RecordedSpace*> priors;
};

// Throws UsageError for an unknown strategy, zero seeds, a stop chance outside [0, 1] or a prior
// that no space can use,
// InputError for a space with no ok result.
TuneEvalTable tune_eval(const std::vector<const RecordedSpace*>& spaces, const std::vector<std::string>& strategies,
                        const TuneEvalOptions& options = {});

// A plain-text report: one table per space, then the mean scores.
std::string render_tune_eval(const TuneEvalTable& table);

}  // namespace memwall
