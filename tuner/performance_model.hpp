// What the guided strategy learns online from the evaluations so far: the log-time of any
// configuration of the space, with a spread.
//
// With counters (DRAM and L2 bytes, instructions, ... whatever the source provides), each
// extensive counter gets an additive model over the parameters (traffic and work are products of
// per-parameter factors, so their logarithms are nearly additive), and its best throughput
// measured so far is taken as an empirical ceiling. The predicted counters over those ceilings
// bound the time from below, as a roofline does (max over resources of work / rate); a forest
// learns the rest, log(time / bound), the inefficiency. Without counters the forest learns
// log(time) directly. Failures are learned separately, as a probability, and count as slowness.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "tuner/additive_model.hpp"
#include "tuner/forest.hpp"
#include "tuner/tune.hpp"

namespace memwall {

class PerformanceModel {
public:
    explicit PerformanceModel(const TuningSpace& space);

    // Refits on every evaluation in `h`; needs at least one ok evaluation to predict.
    void fit(const History& h, std::mt19937_64& rng);
    // log(seconds) expected for `c`, and its spread.
    Prediction predict(const Config& c) const;

    // The counters the roofline bound uses (empty without counters).
    std::vector<std::string> bound_counters() const;
    // The roofline bound alone, log(seconds); only meaningful when bound_counters() is not empty.
    double log_bound(const Config& c) const;

private:
    struct CounterModel {
        std::string name;
        std::size_t position = 0;  // where evaluations usually list it
        AdditiveModel model;    // of log(1 + count)
        double log_rate = 0;    // best throughput measured: max log(count / seconds)
    };

    void fit_counters(const History& h);
    double measured_log_bound(const Evaluation& e) const;

    const TuningSpace& space_;
    std::vector<std::size_t> levels_;
    AdditiveModel additive_;  // of log(time): where values went unmeasured, and how much each parameter matters
    Forest rest_;             // of log(time), or of log(time / bound) with counters
    Forest failure_;          // of 1 for a failure, 0 for success
    bool any_failed_ = false;
    std::vector<CounterModel> counters_;
};

}  // namespace memwall
