// A Gaussian process over configurations whose covariance is a sum of main effects and pairwise
// interactions (an ANOVA kernel): k(c, c') = sum_p a_p r_p + b sum_{p<q} r_p r_q, with
// r_p = exp(-|index of c_p - index of c'_p| / length), so neighbouring values of an ordered
// parameter behave alike, plus a nugget: each configuration's own part, which no other
// configuration tells (a rugged space has much of it). Each parameter's main effect has an
// amplitude of its own: one shared by all made a parameter that matters little (flash's Br on a
// CPU, 3% across its values) as uncertain as one that matters much (its Bc, 1.7x), and every
// unmeasured value of it a chance to beat the best. They lie within a factor of 10 of each other
// and a prior draws them together, as measurements alike still leave a parameter's other values
// some doubt. The amplitudes and
// length are chosen by the marginal likelihood of the measurements (times that prior), so its
// spread is as wide as they show the function to be: what a rule that asks "could an unmeasured
// configuration still be faster?" needs, where a forest's spread between its trees says how much
// the trees differ, not how far off they are. The measurements' noise is given, as measured from
// their samples: chosen by likelihood too, a few measurements are as well explained by a flat
// function and loud noise, which rules everything out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "tuner/forest.hpp"
#include "tuner/tuning_space.hpp"

namespace memwall {

class AnovaProcess {
  public:
    // `levels[p]`: number of values of parameter p.
    explicit AnovaProcess(std::vector<std::size_t> levels);

    // Conditions on rows (configurations) and their targets, log-times measured with noise of
    // spread `noise`, with the hyperparameters that make them likeliest (all of the grid for a few
    // rows, then a local search from those of the last fit). Needs at least one row to predict.
    // `level`: where the process reverts to away from its rows (by default their mean).
    void fit(std::span<const Config* const> rows, std::span<const double> targets, double noise,
             std::optional<double> level = std::nullopt);
    // The function's value at c (without measurement noise) and its spread.
    Prediction predict(const Config& c) const;
    // The chance that the function's value at c is below `level`; cheap where the mean alone
    // rules it out (no prediction is less sure than the process before any measurement).
    double chance_below(const Config& c, double level) const;
    // The chance that the function is below levels[i] at one cs[i] at least: the share of `draws`
    // joint draws from the process given its rows (seeded by `seed`: the same answer each time).
    // Where the values at the cs move together, far less than the sum of each one's chance.
    double chance_any_below(std::span<const Config* const> cs, std::span<const double> levels, std::size_t draws,
                            std::uint64_t seed) const;

  private:
    struct Hyper {
        std::vector<std::size_t> main;  // per parameter; with the others, indices into the grids
        std::size_t length = 0, interaction = 0, nugget = 0;
        bool operator==(const Hyper&) const = default;
    };
    // What every candidate's likelihood needs, from the rows of one fit.
    struct Design {
        std::vector<std::vector<std::vector<double>>> r;  // [length][k][i * n + j]: r of varying_[k] between rows i, j
        std::vector<double> centred;                      // targets less mean_
    };

    // The mean at c; fills k with the kernel between c and each row.
    double mean(const Config& c, std::vector<double>& k) const;
    // The variance at c given the rows, from the k that mean() filled (which it overwrites).
    double variance(const Config& c, std::vector<double>& k) const;
    // The kernel between a and b under the fitted hyperparameters.
    double covariance(const Config& a, const Config& b) const;
    // The log marginal likelihood of the centred targets under h; fills the Cholesky factor and
    // weights. -infinity where the covariance is not positive definite.
    double condition(const Hyper& h, const Design& d, std::vector<double>& chol, std::vector<double>& alpha) const;
    // Whether h's main amplitudes lie within kMainRatio of each other, and the log prior density
    // of them (up to a constant), which draws them together.
    bool mains_within_ratio(const Hyper& h) const;
    double log_prior(const Hyper& h) const;

    std::vector<std::size_t> levels_;
    std::vector<std::size_t> varying_;        // the parameters with more than one value
    std::vector<std::vector<double>> power_;  // [length][distance]: exp(-distance / length)
    Hyper hyper_;
    double variance_ = 1;  // of the targets: the amplitudes' unit
    double noise_ = 0;     // variance of a measurement
    double mean_ = 0;
    std::vector<Config> rows_;
    std::vector<double> chol_;   // lower Cholesky factor of K + noise, row-major n x n
    std::vector<double> alpha_;  // (K + noise)^-1 (targets - mean)
};

}  // namespace memwall
