// tune-eval: every strategy replayed over every recorded space with many seeds, scored against
// the exact random-search baseline (Willemsen et al.), with the evaluations each run needed to
// get within 10% and 5% of the optimum and to the optimum. Strategies that read a CounterPrior
// (guided) are given the recording's device-independent counters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tuner/recorded_space.hpp"

namespace memwall {

struct TuneEvalOptions {
    std::size_t seeds = 100;
    std::uint64_t first_seed = 1;  // seeds first_seed, first_seed + 1, ...
    double budget_fraction = 0.95;  // of the way from the median to the optimum
    // Evaluations per run at most; 0: until the optimum is found (and at least the budget).
    std::size_t max_evaluations = 0;
    int threads = 0;  // 0: OpenMP's default
    std::function<void(double)> progress;  // fraction of runs done; may be empty
};

// Evaluations a strategy needed over the seeds. Runs that never got there count as infinitely
// many, so a quartile may be infinite; `reached` says how many did.
struct EvaluationsNeeded {
    double q1 = 0, median = 0, q3 = 0;
    std::size_t reached = 0;
};

struct TuneEvalRow {
    std::string strategy;
    double score = 0;     // mean over seeds (and over the budget)
    double score_sd = 0;  // standard deviation of the per-seed scores
    EvaluationsNeeded within10, within5, optimum;
    double strategy_seconds = 0;  // mean wall time a run spent proposing
};

struct TuneEvalSpace {
    std::string name;  // the file name
    std::string device, kernel;
    std::size_t size = 0, ok = 0;
    double optimum_seconds = 0, median_seconds = 0;
    std::size_t budget = 0;  // evaluations the score averages over
    // Random search, exactly: expected draws to get within 10%, 5%, and to the optimum.
    double random_within10 = 0, random_within5 = 0, random_optimum = 0;
    bool has_counters = false;
    // The device-independent counters strategies that read a CounterPrior were given (empty:
    // none, or no such strategy asked for).
    std::vector<std::string> prior_counters;
    std::vector<TuneEvalRow> rows;  // one per strategy, in the order asked
};

struct TuneEvalTable {
    std::size_t seeds = 0;
    std::vector<TuneEvalSpace> spaces;
    // Mean score of each strategy over the spaces, in the order asked.
    std::vector<std::pair<std::string, double>> mean_scores;
};

// Throws UsageError for an unknown strategy or zero seeds, InputError for a space with no ok result.
TuneEvalTable tune_eval(const std::vector<const RecordedSpace*>& spaces, const std::vector<std::string>& strategies,
                        const TuneEvalOptions& options = {});

// A plain-text report: one table per space, then the mean scores.
std::string render_tune_eval(const TuneEvalTable& table);

}  // namespace memwall
