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
// With a Prior, known before measuring: device-independent counters of every configuration
// (the work is known rather than predicted, but not what each count costs on the device) and
// other devices' times of the same kernel (a ranking that may or may not hold here). log(time) is
// regressed on the prior's columns (log counts, log times elsewhere), starting from their
// geometric mean, or from the other devices' times where there are some, and learning from the
// measured times which columns matter; a forest learns the rest. A prior can be wrong, so the
// model keeps the prior-free model beside it and mixes the two by how well each predicted every
// measurement before it was made (each scored out of sample): a prior that misleads loses its
// weight within a few measurements, and one that predicts well keeps it.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "tuner/additive_model.hpp"
#include "tuner/forest.hpp"
#include "tuner/strategies/prior.hpp"
#include "tuner/tune.hpp"

namespace memwall {

class TimePredictor {
  public:
    // `prior`, when given, must cover every configuration of `space`.
    explicit TimePredictor(const TuningSpace& space, const Prior* prior = nullptr);

    // Refits on every evaluation in `h`; needs at least one ok evaluation to predict.
    void fit(const History& h, std::mt19937_64& rng);
    // log(seconds) expected for configuration `id` of the space, and its spread.
    Prediction predict(std::size_t id) const;
    // The same for a configuration given by value; throws std::invalid_argument when it is not in the space.
    Prediction predict(const Config& c) const;

    bool has_prior() const { return !work_.weights.empty(); }
    // With a prior: log(time) as the prior's columns alone predict it, up to a constant; usable
    // before the first fit (the mean of the columns, each over its median).
    double log_work(std::size_t id) const;
    // The prior's share of the predictions: 1 until the prior-free model has been scored, then
    // moved by how well each predicted the measurements; 0 without a prior.
    double prior_weight() const;

    // The counters the roofline bound uses (empty without counters).
    std::vector<std::string> bound_counters() const;
    // The roofline bound alone, log(seconds); only meaningful when bound_counters() is not empty.
    double log_bound(const Config& c) const;

  private:
    struct CounterModel {
        std::string name;
        std::size_t position = 0;  // where evaluations usually list it
        AdditiveModel model;       // of log(1 + count)
        double log_rate = 0;       // best throughput measured: max log(count / seconds)
    };

    // log(time) ~ intercept + weights . features(config): ridge regression towards the initial weights.
    struct WorkModel {
        std::vector<std::vector<double>> features;  // [config]: each varying column over its median
        std::vector<double> initial;                // equal shares of the counts, or of the devices' times
        std::vector<double> weights;
        double intercept = 0;
        std::vector<double> failed;  // [config]: the share of the prior's devices it failed on
        bool has_devices = false;
    };

    void fit_counters(const History& h);
    void fit_work(const History& h);
    void score_members(const History& h);
    double measured_log_bound(const Evaluation& e) const;
    // What both models take alike from the measurements: the spread of c's unmeasured values,
    // and its learned chance of failing (0 before any failure).
    struct Shared {
        double unseen = 0;
        double failing = 0;
    };
    Shared shared(const Config& c) const;
    Prediction predict_online(std::size_t id, const Shared& k) const;
    Prediction predict_with_prior(std::size_t id, const Shared& k) const;

    const TuningSpace& space_;
    std::vector<std::size_t> levels_;
    AdditiveModel additive_;  // of log(time): where values went unmeasured, and how much each parameter matters
    Forest rest_;             // of log(time), or of log(time / bound) with counters
    Forest prior_rest_;       // of log(time) - log_work
    Forest failure_;          // of 1 for a failure, 0 for success
    bool any_failed_ = false;
    std::vector<CounterModel> counters_;
    WorkModel work_;
    // Out-of-sample squared errors of the two models on the measurements scored so far.
    bool fitted_ = false;
    std::size_t scored_ = 0;  // evaluations of the history already scored
    std::size_t scored_ok_ = 0;
    double sse_online_ = 0, sse_prior_ = 0;
};

}  // namespace memwall
