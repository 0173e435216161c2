// A percentile-bootstrap confidence interval for the ratio of two runs' median times, which
// resamples the way the runs were measured: repetitions with replacement, then samples within
// each chosen repetition (samples of one repetition share the machine's state and are
// correlated, so they are not resampled as if independent).
#pragma once

#include <cstdint>
#include <vector>

#include "stats/statistics.hpp"

namespace memwall {

// samples[r]: the times of repetition r, as CaseRecord stores them.
using Repetitions = std::vector<std::vector<double>>;

// Every sample of every repetition, in order.
std::vector<double> pooled_samples(const Repetitions& samples);

// Median of every sample of every repetition (NumPy's median: the mean of the two middle
// values when there is an even number); 0 when there are none.
double pooled_median(const Repetitions& samples);

struct RatioInterval {
    Interval ci;                     // of median(candidate) / median(base)
    std::vector<double> replicates;  // the resampled ratios, in draw order
};

// `resamples` replicates from a std::mt19937_64 seeded with `seed`, so an interval is
// reproducible. Throws std::invalid_argument when either side has no sample, confidence is
// outside (0, 1) or resamples < 1.
RatioInterval bootstrap_ratio(const Repetitions& base, const Repetitions& candidate, double confidence, int resamples,
                              std::uint64_t seed);

// The same for runs measured together, repetition r of one beside repetition r of the other:
// each replicate draws repetition indices once for both sides, so the machine state a pair
// shared stays shared and cancels in the ratio. Also throws std::invalid_argument when the
// sides have different numbers of repetitions or an empty one.
RatioInterval bootstrap_ratio_paired(const Repetitions& base, const Repetitions& candidate, double confidence,
                                     int resamples, std::uint64_t seed);

}  // namespace memwall
