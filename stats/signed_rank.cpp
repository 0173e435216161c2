#include "stats/signed_rank.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace memwall {

namespace {

// P(V <= v) under the null for n differences without ties: the subsets of the ranks 1..n
// (the positive ones) whose sum is at most v, over all 2^n of them. Counts by adding one rank
// at a time, only additions, so the tails keep their precision.
double exact_cdf(std::size_t n, std::size_t v) {
    std::vector<double> ways(v + 1, 0.0);
    ways[0] = 1;
    for (std::size_t rank = 1; rank <= n; ++rank)
        for (std::size_t s = v + 1; s-- > rank;) ways[s] += ways[s - rank];
    double below = 0;
    for (double w : ways) below += w;
    return below / std::ldexp(1.0, static_cast<int>(n));
}

double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

}  // namespace

SignedRankTest signed_rank(std::span<const double> differences, std::size_t exact_below) {
    SignedRankTest r;
    std::vector<double> d;
    for (double x : differences)
        if (x != 0) d.push_back(x);
    const bool zeros = d.size() != differences.size();
    r.n = d.size();
    if (d.empty()) return r;

    std::sort(d.begin(), d.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    double tie_term = 0;
    bool ties = false;
    for (std::size_t i = 0; i < d.size();) {
        std::size_t j = i;
        while (j < d.size() && std::abs(d[j]) == std::abs(d[i])) ++j;
        const double mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        for (std::size_t k = i; k < j; ++k)
            if (d[k] > 0) r.v += mid;
        const auto t = static_cast<double>(j - i);
        if (j - i > 1) ties = true;
        tie_term += t * t * t - t;
        i = j;
    }
    const auto n = static_cast<double>(r.n);
    if (!ties && !zeros && r.n < exact_below) {
        r.exact = true;
        // V is symmetric about n(n+1)/4: the smaller tail is P(V <= min(v, n(n+1)/2 - v)).
        const auto v = static_cast<std::size_t>(std::llround(r.v));
        const std::size_t top = r.n * (r.n + 1) / 2;
        r.p = std::min(1.0, 2 * exact_cdf(r.n, std::min(v, top - v)));
        return r;
    }
    const double var = n * (n + 1) * (2 * n + 1) / 24 - tie_term / 48;
    if (!(var > 0)) return r;
    const double dev = std::abs(r.v - n * (n + 1) / 4);
    r.p = std::min(1.0, 2 * normal_upper_tail(std::max(0.0, dev - 0.5) / std::sqrt(var)));
    return r;
}

}  // namespace memwall
