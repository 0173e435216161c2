#include "stats/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace memwall {

namespace {

// P(U <= u) under the null for sizes m and n (no ties): the arrangements of m x's among
// m + n ranks whose U is at most u, over all C(m + n, m) of them. Counts follow
// N(i, j, v) = N(i - 1, j, v - j) + N(i, j - 1, v) (the largest value is an x or a y), kept
// only for v <= u; only additions of positive numbers, so the tails keep their precision.
double exact_cdf(std::size_t m, std::size_t n, std::size_t u) {
    u = std::min(u, m * n);
    std::vector<std::vector<double>> row(m + 1, std::vector<double>(u + 1, 0.0));  // N(i, j, v)
    for (std::size_t i = 0; i <= m; ++i) row[i][0] = 1;                            // j = 0: one arrangement, U = 0
    for (std::size_t j = 1; j <= n; ++j)
        for (std::size_t i = 1; i <= m; ++i)
            for (std::size_t v = u + 1; v-- > j;) row[i][v] += row[i - 1][v - j];
    double below = 0;
    for (double c : row[m]) below += c;
    double arrangements = 1;  // C(m + n, m)
    for (std::size_t k = 1; k <= m; ++k)
        arrangements = arrangements * static_cast<double>(n + k) / static_cast<double>(k);
    return below / arrangements;
}

double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

}  // namespace

RankTest mann_whitney(std::span<const double> x, std::span<const double> y, std::size_t exact_below) {
    RankTest r;
    const std::size_t m = x.size(), n = y.size();
    if (m == 0 || n == 0) return r;

    // Mid-ranks of the pooled sample; tie groups for the variance correction.
    std::vector<std::pair<double, bool>> all;  // value, from x
    all.reserve(m + n);
    for (double v : x) all.emplace_back(v, true);
    for (double v : y) all.emplace_back(v, false);
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::size_t total = m + n;
    double rank_sum_x = 0, tie_term = 0;
    bool ties = false;
    for (std::size_t i = 0; i < total;) {
        std::size_t j = i;
        while (j < total && all[j].first == all[i].first) ++j;
        const double mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        for (std::size_t k = i; k < j; ++k)
            if (all[k].second) rank_sum_x += mid;
        const auto t = static_cast<double>(j - i);
        if (j - i > 1) ties = true;
        tie_term += t * t * t - t;
        i = j;
    }
    const double md = static_cast<double>(m), nd = static_cast<double>(n);
    r.u = rank_sum_x - md * (md + 1) / 2;

    if (!ties && m < exact_below && n < exact_below) {
        r.exact = true;
        // U is symmetric about mn/2: the smaller tail is P(U <= min(u, mn - u)).
        const auto u = static_cast<std::size_t>(std::llround(r.u));
        r.p = std::min(1.0, 2 * exact_cdf(m, n, std::min(u, m * n - u)));
        return r;
    }
    const double nn = md + nd;
    const double var = md * nd / 12 * ((nn + 1) - tie_term / (nn * (nn - 1)));
    if (!(var > 0)) return r;  // every value tied: no evidence either way
    const double dev = std::abs(r.u - md * nd / 2);
    const double z = std::max(0.0, dev - 0.5) / std::sqrt(var);
    r.p = std::min(1.0, 2 * normal_upper_tail(z));
    return r;
}

}  // namespace memwall
