// Summary statistics of timing samples, and the stopping rule of the sampler.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace memwall {

struct Summary {
    std::size_t n = 0;
    double median = 0, min = 0, max = 0, mean = 0;
    double stddev = 0;  // sample standard deviation (n - 1)
    double q1 = 0, q3 = 0, iqr = 0;
    double rsd = 0;  // stddev / mean
};

Summary summarize(std::span<const double> xs);

// Quantile of sorted data by linear interpolation between order statistics (type 7, as NumPy
// and R default).
double quantile_sorted(std::span<const double> sorted, double q);

struct Interval {
    double lo = 0, hi = 0;
};

// Distribution-free confidence interval of the median from order statistics (binomial);
// for n too small to reach `confidence`, the whole range [min, max].
Interval median_ci(std::span<const double> xs, double confidence = 0.95);

}  // namespace memwall
