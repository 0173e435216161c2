// The comparison score of Willemsen et al. (FGCS 2024): at each evaluation t of the budget,
// score(t) = (best(t) - random(t)) / (optimum - random(t)) with random(t) the exact baseline;
// the strategy's score is the mean over t = 1..budget. 0 is random search, 1 the optimum from
// the first evaluation, negative worse than random.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "tuner/random_baseline.hpp"
#include "tuner/tune.hpp"

namespace memwall {

// best(1), ..., best(length) of a trace: before the first ok evaluation the best counts as
// `worst` (the baseline's convention for failures); after the trace ends it stays at its last value.
std::vector<double> best_so_far(const Trace& trace, std::size_t length, double worst);

// The mean score over t = 1..best.size() of a best-so-far curve (one run's, or the mean of
// many runs': the score is linear in best(t), so both give the same mean).
double willemsen_score(std::span<const double> best, const RandomBaseline& baseline);

}  // namespace memwall
