// The table `memwall tune-eval` computes (tuner/tune_eval.hpp) and the store keeps
// (results/tune_eval_store.hpp): per recorded space and strategy, the score against the exact
// random-search baseline and the evaluations needed to get near the optimum.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace memwall {

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
    // With the stopping rule on: evaluations until the rule stopped a run (infinite for runs it
    // did not stop: ended at the optimum, or out of evaluations).
    EvaluationsNeeded stopped;
    double strategy_seconds = 0;  // mean wall time a run spent proposing
    // For a strategy that reads a prior, beside its prior-free twin in the same table: the
    // twin's name, and the evaluations to within 10% as median(this) / median(twin), with a 95%
    // bootstrap interval over the seeds (infinite where too many runs never got there); an
    // interval that holds 1 is a difference within the noise of the seeds. Empty when none.
    std::string versus;
    double versus_ratio = 0, versus_lo = 0, versus_hi = 0;
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
    // The other devices' recordings they were given, as "device (file): n recorded, ...".
    std::vector<std::string> prior_devices;
    std::vector<TuneEvalRow> rows;  // one per strategy, in the order asked
};

struct TuneEvalTable {
    std::size_t seeds = 0;
    double stop_chance = 0;  // the stopping rule's chance (Budget::stop_chance); 0: off
    std::vector<TuneEvalSpace> spaces;
    // Mean score of each strategy over the spaces, in the order asked.
    std::vector<std::pair<std::string, double>> mean_scores;
};

}  // namespace memwall
