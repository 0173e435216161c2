// What the guided strategy learns online from the evaluations so far: the log-time of any
// configuration of the space, with a spread.
//
// With measured counters (DRAM and L2 bytes, instructions, ... whatever the source provides),
// each extensive counter gets an additive model over the parameters (traffic and work are
// products of per-parameter factors, so their logarithms are nearly additive), and its best
// throughput measured so far is taken as an empirical ceiling. The predicted counters over those
// ceilings bound the time from below, as a roofline does (max over resources of work / rate); a
// forest learns the rest, log(time / bound), the inefficiency. Without counters the forest learns
// log(time) directly. Failures are learned separately, as a probability, and count as slowness.
//
// With a CounterPrior (device-independent counters of every configuration, known before
// measuring), the work of every configuration is known rather than predicted, but not what each
// counter costs on the device: log(time) is regressed on the logarithms of the prior's counts,
// starting from their geometric mean (every counted resource equally to blame) and learning from
// the measured times which counts matter; the forest learns the rest.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "tuner/additive_model.hpp"
#include "tuner/forest.hpp"
#include "tuner/strategies/counter_prior.hpp"
#include "tuner/tune.hpp"

namespace memwall {

class PerformanceModel {
public:
    // `prior`, when given, must cover every configuration of `space`.
    explicit PerformanceModel(const TuningSpace& space, const CounterPrior* prior = nullptr);

    // Refits on every evaluation in `h`; needs at least one ok evaluation to predict.
    void fit(const History& h, std::mt19937_64& rng);
    // log(seconds) expected for configuration `id` of the space, and its spread.
    Prediction predict(std::size_t id) const;
    // The same for a configuration given by value; throws std::invalid_argument when it is not in the space.
    Prediction predict(const Config& c) const;

    bool has_prior() const { return !work_.weights.empty(); }
    // With a prior: log(time) as the prior's counts alone predict it, up to a constant; usable
    // before the first fit (the geometric mean of the counts, each over its median).
    double log_work(std::size_t id) const;

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

    // log(time) ~ intercept + weights . features(config): ridge regression towards equal weights.
    struct WorkModel {
        std::vector<std::vector<double>> features;  // [config]: log of each varying count over its median
        std::vector<double> weights;
        double intercept = 0;
    };

    void fit_counters(const History& h);
    void fit_work(const History& h);
    double measured_log_bound(const Evaluation& e) const;

    const TuningSpace& space_;
    std::vector<std::size_t> levels_;
    AdditiveModel additive_;  // of log(time): where values went unmeasured, and how much each parameter matters
    Forest rest_;             // of log(time), or of log(time / bound) with counters
    Forest failure_;          // of 1 for a failure, 0 for success
    bool any_failed_ = false;
    std::vector<CounterModel> counters_;
    WorkModel work_;
};

}  // namespace memwall
