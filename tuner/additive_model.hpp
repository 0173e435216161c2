// An additive model over configurations: y ~ mu + sum_p f_p(value index of p), each f_p
// smoothed along its ordered values and shrunk towards zero where nothing was measured. Fitted
// by backfitting (one small tridiagonal system per parameter), it learns the main effect of
// every parameter from a handful of measurements, which is what a model needs early in a search.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "tuner/tuning_space.hpp"

namespace memwall {

class AdditiveModel {
  public:
    struct Penalties {
        double smooth = 0.5;  // on differences between adjacent values' effects
        double shrink = 0.1;  // on an effect's size (pulls unmeasured values to 0)
    };

    // `levels[p]`: number of values of parameter p. Noisy targets (times) want the default
    // penalties; exact ones (counts) want light ones.
    explicit AdditiveModel(std::vector<std::size_t> levels, Penalties penalties);
    explicit AdditiveModel(std::vector<std::size_t> levels) : AdditiveModel(std::move(levels), Penalties{}) {}

    void fit(std::span<const Config* const> rows, std::span<const double> targets);
    double predict(const Config& c) const;
    // A rough standard deviation of the prediction: large where values of `c` were rarely
    // measured for parameters whose measured values made a difference.
    double sd(const Config& c) const;

  private:
    std::vector<std::size_t> levels_;
    Penalties penalties_;
    double mu_ = 0;
    std::vector<std::vector<double>> effect_;  // per parameter and value index
    std::vector<std::vector<double>> count_;   // measurements per parameter and value index
    std::vector<double> scale_;                // per parameter: variance of its effects
    double residual_var_ = 0;                  // of the targets about the fit, per measurement
};

// Penalties for exact targets such as counts: their effects are smoothed and shrunk only lightly.
inline constexpr AdditiveModel::Penalties kCountPenalties{0.05, 0.01};

}  // namespace memwall
