#include "tuner/random_baseline.hpp"

#include <algorithm>
#include <stdexcept>

#include "stats/statistics.hpp"

namespace memwall {

static std::vector<double> times_of(const RecordedSpace& rs) {
    const double worst = [&] {
        double w = 0;
        for (const auto& e : rs.results)
            if (e.ok()) w = std::max(w, e.seconds);
        return w;
    }();
    rs.optimum_seconds();  // throws when nothing is ok
    std::vector<double> t;
    t.reserve(rs.results.size());
    for (const auto& e : rs.results) t.push_back(e.ok() ? e.seconds : worst);
    return t;
}

static double median_of_ok(const RecordedSpace& rs) {
    std::vector<double> ok;
    for (const auto& e : rs.results)
        if (e.ok()) ok.push_back(e.seconds);
    std::sort(ok.begin(), ok.end());
    return quantile_sorted(ok, 0.5);
}

RandomBaseline::RandomBaseline(const RecordedSpace& recorded) : RandomBaseline(times_of(recorded)) {
    median_ = median_of_ok(recorded);
}

RandomBaseline::RandomBaseline(std::vector<double> times) : sorted_(std::move(times)) {
    if (sorted_.empty()) throw std::invalid_argument("random baseline of an empty space");
    std::sort(sorted_.begin(), sorted_.end());
    median_ = quantile_sorted(sorted_, 0.5);
}

double RandomBaseline::expected_best(std::size_t m) const {
    const std::size_t n = sorted_.size();
    if (m < 1 || m > n) throw std::invalid_argument("draws out of range");
    // p_i = C(n-1-i, m-1) / C(n, m); p_0 = m/n and p_{i+1} = p_i (n-i-m) / (n-i-1).
    double p = static_cast<double>(m) / static_cast<double>(n);
    double sum = 0;
    for (std::size_t i = 0; i + m <= n && p > 0; ++i) {
        sum += p * sorted_[i];
        if (i + 1 < n) p *= static_cast<double>(n - i - m) / static_cast<double>(n - i - 1);
    }
    return sum;
}

std::vector<double> RandomBaseline::curve(std::size_t max_m) const {
    std::vector<double> c;
    c.reserve(max_m);
    for (std::size_t m = 1; m <= max_m; ++m) c.push_back(expected_best(m));
    return c;
}

std::size_t RandomBaseline::draws_to_reach(double target) const {
    // expected_best is non-increasing in m: bisect.
    std::size_t lo = 1, hi = sorted_.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (expected_best(mid) <= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

std::size_t RandomBaseline::budget(double fraction) const {
    return draws_to_reach(optimum() + (median_ - optimum()) * (1.0 - fraction));
}

double RandomBaseline::expected_draws_to(double threshold) const {
    const auto k = static_cast<double>(std::upper_bound(sorted_.begin(), sorted_.end(), threshold) - sorted_.begin());
    return (static_cast<double>(sorted_.size()) + 1.0) / (k + 1.0);
}

}  // namespace memwall
