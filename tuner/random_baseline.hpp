// The exact random-search baseline of Willemsen et al. (FGCS 2024): random search without
// replacement over a recorded space, in expectation, computed from the sorted times rather
// than simulated. With the N times sorted ascending (v_0 <= ... <= v_{N-1}), the best of m
// draws is v_i with probability C(N-1-i, m-1) / C(N, m).
#pragma once

#include <cstddef>
#include <vector>

#include "tuner/recorded_space.hpp"

namespace memwall {

class RandomBaseline {
  public:
    // Every configuration of the space counts as a draw; a failed one counts as the slowest
    // ok time, so a search that has found nothing valid yet is as bad as the worst valid one.
    // Throws InputError when no configuration is ok.
    explicit RandomBaseline(const RecordedSpace& recorded);
    // Times of all N configurations, failures already replaced; throws std::invalid_argument
    // when empty.
    explicit RandomBaseline(std::vector<double> times);

    std::size_t size() const { return sorted_.size(); }
    double optimum() const { return sorted_.front(); }
    double worst() const { return sorted_.back(); }
    // The median of the ok times (failures excluded).
    double median() const { return median_; }

    // The expected best time after m draws, 1 <= m <= size().
    double expected_best(std::size_t m) const;
    // expected_best(1), ..., expected_best(max_m).
    std::vector<double> curve(std::size_t max_m) const;
    // The fewest draws whose expected best is <= target (size() when only all draws reach it).
    std::size_t draws_to_reach(double target) const;
    // The comparison budget: the draws random search needs to get `fraction` of the way from the
    // median to the optimum.
    std::size_t budget(double fraction = 0.95) const;
    // The expected number of draws until the first time <= threshold: (N + 1) / (K + 1) for K
    // such configurations.
    double expected_draws_to(double threshold) const;

  private:
    std::vector<double> sorted_;
    double median_ = 0;
};

}  // namespace memwall
