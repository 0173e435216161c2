#include "stats/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace memwall {

Summary summarize(std::span<const double> xs) {
    Summary s;
    s.n = xs.size();
    if (s.n == 0) return s;
    std::vector<double> sorted(xs.begin(), xs.end());
    std::sort(sorted.begin(), sorted.end());
    s.min = sorted.front();
    s.max = sorted.back();
    s.median = quantile_sorted(sorted, 0.5);
    s.q1 = quantile_sorted(sorted, 0.25);
    s.q3 = quantile_sorted(sorted, 0.75);
    s.iqr = s.q3 - s.q1;
    double sum = 0;
    for (double x : sorted) sum += x;
    s.mean = sum / static_cast<double>(s.n);
    if (s.n > 1) {
        // Two passes: the sum of squared deviations stays accurate when the mean is large.
        double ss = 0;
        for (double x : sorted) ss += (x - s.mean) * (x - s.mean);
        s.stddev = std::sqrt(ss / static_cast<double>(s.n - 1));
    }
    s.rsd = s.mean != 0 ? s.stddev / s.mean : 0;
    return s;
}

double quantile_sorted(std::span<const double> sorted, double q) {
    if (sorted.empty()) throw std::invalid_argument("quantile of no data");
    if (!(q >= 0 && q <= 1)) throw std::invalid_argument("quantile outside [0, 1]");
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    if (lo + 1 >= sorted.size()) return sorted.back();
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[lo + 1] - sorted[lo]);
}

Interval median_ci(std::span<const double> xs, double confidence) {
    if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("confidence outside (0, 1)");
    if (xs.empty()) return {};
    std::vector<double> sorted(xs.begin(), xs.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    // [x_(k), x_(n-k+1)] covers the median with probability P(k <= B <= n-k), B ~ Binomial(n,
    // 1/2), that is 1 - 2 P(B <= k-1). Find the largest k whose tail P(B <= k-1) is at most
    // (1 - confidence) / 2. The pmf is kept in log space: 2^-n underflows for n > 1074.
    const double tail_max = (1 - confidence) / 2 * (1 + 1e-12);
    const double nd = static_cast<double>(n);
    double log_pmf = -nd * std::log(2.0);  // log P(B = 0)
    double cdf = 0;
    std::size_t k = 0;  // 0: no k reaches the confidence
    for (std::size_t i = 0; 2 * (i + 1) <= n; ++i) {
        cdf += std::exp(log_pmf);
        if (cdf > tail_max) break;
        k = i + 1;
        const double id = static_cast<double>(i);
        log_pmf += std::log((nd - id) / (id + 1));  // P(B = i+1) / P(B = i)
    }
    if (k == 0) return {sorted.front(), sorted.back()};
    return {sorted[k - 1], sorted[n - k]};
}

}  // namespace memwall
