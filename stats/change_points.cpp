#include "stats/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace memwall {

namespace {

double median_of(std::vector<double> v) {
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1) return upper;
    return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

struct Series {
    std::vector<double> x;    // log values
    std::vector<double> var;  // per-point variance (log scale): scatter^2 + own error^2
};

double segment_median(const Series& s, std::size_t a, std::size_t b) {
    return median_of(std::vector<double>(s.x.begin() + static_cast<std::ptrdiff_t>(a),
                                         s.x.begin() + static_cast<std::ptrdiff_t>(b)));
}

// Variance of a segment's median: the mean point variance over n, times pi/2 (the median's
// efficiency relative to the mean for normal data).
double median_variance(const Series& s, std::size_t a, std::size_t b) {
    double v = 0;
    for (std::size_t i = a; i < b; ++i) v += s.var[i];
    const auto n = static_cast<double>(b - a);
    return std::numbers::pi / 2 * (v / n) / n;
}

// Sum of absolute deviations from the median of x[a, b).
double l1_cost(const Series& s, std::size_t a, std::size_t b, double median) {
    double c = 0;
    for (std::size_t i = a; i < b; ++i) c += std::abs(s.x[i] - median);
    return c;
}

void segment(const Series& s, std::size_t a, std::size_t b, const ChangeOptions& opt, std::vector<ChangePoint>& out) {
    if (b - a < 2 * opt.min_segment) return;
    // The split is placed where two levels fit best (least absolute deviations, robust to odd
    // runs); medians alone cannot place it, as they barely move while the split slides.
    std::size_t best = 0;
    double best_cost = std::numeric_limits<double>::infinity(), left = 0, right = 0;
    for (std::size_t k = a + opt.min_segment; k + opt.min_segment <= b; ++k) {
        const double l = segment_median(s, a, k), r = segment_median(s, k, b);
        const double cost = l1_cost(s, a, k, l) + l1_cost(s, k, b, r);
        if (cost < best_cost) {
            best_cost = cost;
            best = k;
            left = l;
            right = r;
        }
    }
    const double step = std::abs(right - left);
    const double se = std::sqrt(median_variance(s, a, best) + median_variance(s, best, b));
    const double score = se > 0 ? step / se : std::numeric_limits<double>::infinity();
    if (step < std::log1p(opt.threshold) || score < opt.min_score) return;
    segment(s, a, best, opt, out);
    out.push_back({best, std::exp(left), std::exp(right), score});
    segment(s, best, b, opt, out);
}

}  // namespace

std::vector<ChangePoint> detect_change_points(std::span<const double> values, std::span<const double> relative_error,
                                              const ChangeOptions& opt) {
    if (!relative_error.empty() && relative_error.size() != values.size())
        throw std::invalid_argument("change points: one relative error per value");
    if (opt.min_segment < 1) throw std::invalid_argument("change points: min_segment must be >= 1");
    if (!(opt.threshold >= 0) || !(opt.min_score >= 0)) throw std::invalid_argument("change points: negative option");
    Series s;
    for (double v : values) {
        if (!(v > 0) || !std::isfinite(v)) throw std::invalid_argument("change points: values must be positive");
        s.x.push_back(std::log(v));
    }
    // Run-to-run scatter: 1.4826 MAD-style scale of successive differences, over sqrt(2) since
    // a difference carries the noise of two points.
    double scatter = 0;
    if (s.x.size() >= 3) {
        std::vector<double> diffs;
        for (std::size_t i = 1; i < s.x.size(); ++i) diffs.push_back(std::abs(s.x[i] - s.x[i - 1]));
        scatter = 1.4826 * median_of(diffs) / std::numbers::sqrt2;
    }
    for (std::size_t i = 0; i < s.x.size(); ++i) {
        const double own = relative_error.empty() ? 0 : relative_error[i];
        s.var.push_back(scatter * scatter + own * own);
    }
    std::vector<ChangePoint> out;
    segment(s, 0, s.x.size(), opt, out);
    return out;
}

}  // namespace memwall
