#include "tuner/anova_process.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "tuner/cholesky.hpp"

namespace memwall {

namespace {

// The hyperparameters' grids: amplitudes in units of the targets' variance, length in steps of a
// parameter's values.
constexpr std::array kMain{0.01, 0.03, 0.1, 0.3, 1.0, 3.0};
constexpr std::array kInteraction{0.0, 0.01, 0.03, 0.1, 0.3, 1.0};
constexpr std::array kLength{0.5, 1.0, 2.0, 4.0};
constexpr std::array kNugget{0.0, 0.01, 0.03, 0.1, 0.3, 1.0};
// A measurement's spread is taken as at least this (0.2%): the covariance stays well conditioned.
constexpr double kLeastNoise = 0.002;
// Up to this many rows every point of the grid is tried (900 small factorisations);
// beyond, a search among the neighbours of the last fit's choice.
constexpr std::size_t kWholeGridRows = 32;

}  // namespace

AnovaProcess::AnovaProcess(std::vector<std::size_t> levels) : levels_(std::move(levels)), hyper_{3, 2, 1, 0} {
    for (std::size_t l : levels_) varying_ += l > 1 ? 1 : 0;
    const std::size_t most = levels_.empty() ? 1 : *std::max_element(levels_.begin(), levels_.end());
    for (double length : kLength) {
        power_.emplace_back();
        for (std::size_t d = 0; d < most; ++d) power_.back().push_back(std::exp(-static_cast<double>(d) / length));
    }
}

std::pair<double, double> AnovaProcess::sums(const Config& a, const Config& b, std::size_t length) const {
    double sum = 0, squares = 0;
    for (std::size_t p = 0; p < levels_.size(); ++p) {
        if (levels_[p] < 2) continue;  // a single value tells configurations apart by nothing
        const double r = power_[length][a[p] > b[p] ? a[p] - b[p] : b[p] - a[p]];
        sum += r;
        squares += r * r;
    }
    return {sum, 0.5 * (sum * sum - squares)};
}

double AnovaProcess::covariance(double main, double pairs, const Hyper& h) const {
    // main sums one 1 per varying parameter exactly where the two configurations are the same.
    const double own = main == static_cast<double>(varying_) ? kNugget[h.nugget] : 0.0;
    return (kMain[h.main] * main + kInteraction[h.interaction] * pairs + own) * variance_;
}

double AnovaProcess::condition(const Hyper& h, const Design& d, std::vector<double>& chol,
                               std::vector<double>& alpha) const {
    const std::size_t n = rows_.size();
    const auto& m = d.main[h.length];
    const auto& q = d.pairs[h.length];
    chol.resize(n * n);
    for (std::size_t i = 0; i < n * n; ++i) chol[i] = covariance(m[i], q[i], h);
    for (std::size_t i = 0; i < n; ++i) chol[i * n + i] += noise_;
    if (!cholesky(chol, n)) return -std::numeric_limits<double>::infinity();
    alpha = d.centred;
    solve_lower(chol, n, alpha);
    double fit = 0, log_det = 0;
    for (std::size_t i = 0; i < n; ++i) {
        fit += alpha[i] * alpha[i];
        log_det += std::log(chol[i * n + i]);
    }
    solve_lower_transposed(chol, n, alpha);
    return -0.5 * fit - log_det;
}

void AnovaProcess::fit(std::span<const Config* const> rows, std::span<const double> targets, double noise,
                       std::optional<double> level) {
    const std::size_t n = rows.size();
    noise_ = std::max(noise, kLeastNoise) * std::max(noise, kLeastNoise);
    rows_.clear();
    for (const Config* c : rows) rows_.push_back(*c);
    mean_ = 0;
    for (double y : targets) mean_ += y / static_cast<double>(n);
    variance_ = 0;
    for (double y : targets) variance_ += (y - mean_) * (y - mean_) / static_cast<double>(n);
    if (level) mean_ = *level;
    // Spread below the noise says nothing of the amplitudes: keep them from vanishing.
    variance_ = std::max(variance_, noise_);
    Design d;
    for (double y : targets) d.centred.push_back(y - mean_);
    d.main.assign(kLength.size(), std::vector<double>(n * n));
    d.pairs.assign(kLength.size(), std::vector<double>(n * n));
    for (std::size_t l = 0; l < kLength.size(); ++l)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j <= i; ++j) {
                const auto [s, q] = sums(rows_[i], rows_[j], l);
                d.main[l][i * n + j] = d.main[l][j * n + i] = s;
                d.pairs[l][i * n + j] = d.pairs[l][j * n + i] = q;
            }

    std::vector<double> chol, alpha;
    double best = condition(hyper_, d, chol_, alpha_);
    const auto consider = [&](const Hyper& h) {
        const double ll = condition(h, d, chol, alpha);
        if (ll > best) {
            best = ll;
            hyper_ = h;
            chol_.swap(chol);
            alpha_.swap(alpha);
        }
    };
    if (n <= kWholeGridRows) {
        for (std::size_t m = 0; m < kMain.size(); ++m)
            for (std::size_t i = 0; i < kInteraction.size(); ++i)
                for (std::size_t l = 0; l < kLength.size(); ++l)
                    for (std::size_t g = 0; g < kNugget.size(); ++g) consider({m, i, l, g});
        return;
    }
    // Coordinate steps to a neighbour on the grid while one is likelier.
    const std::array<std::size_t, 4> sizes{kMain.size(), kInteraction.size(), kLength.size(), kNugget.size()};
    Hyper from;
    do {
        from = hyper_;
        for (std::size_t axis = 0; axis < sizes.size(); ++axis)
            for (int step : {-1, 1}) {
                Hyper h = from;
                std::size_t& v = axis == 0 ? h.main : axis == 1 ? h.interaction : axis == 2 ? h.length : h.nugget;
                if ((step < 0 && v == 0) || (step > 0 && v + 1 == sizes[axis])) continue;
                v = static_cast<std::size_t>(static_cast<int>(v) + step);
                consider(h);
            }
    } while (!(from == hyper_));
}

double AnovaProcess::mean(const Config& c, std::vector<double>& k) const {
    k.resize(rows_.size());
    double m = mean_;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const auto [s, q] = sums(c, rows_[i], hyper_.length);
        k[i] = covariance(s, q, hyper_);
        m += k[i] * alpha_[i];
    }
    return m;
}

double AnovaProcess::prior_variance(const Config& c) const {
    const auto [s, q] = sums(c, c, hyper_.length);
    return covariance(s, q, hyper_);
}

double AnovaProcess::variance(const Config& c, std::vector<double>& k) const {
    double var = prior_variance(c);
    solve_lower(chol_, rows_.size(), k);
    for (double v : k) var -= v * v;
    return std::max(var, 0.0);
}

Prediction AnovaProcess::predict(const Config& c) const {
    std::vector<double> k;
    const double m = mean(c, k);
    return {m, std::sqrt(variance(c, k))};
}

double AnovaProcess::chance_below(const Config& c, double level) const {
    std::vector<double> k;
    const double m = mean(c, k);
    if (level < m - 8 * std::sqrt(prior_variance(c))) return 0.0;  // below 1e-15 before any measurement
    const double sd = std::sqrt(variance(c, k));
    return sd > 1e-12 ? 0.5 * std::erfc((m - level) / (sd * std::numbers::sqrt2)) : (m < level ? 1.0 : 0.0);
}

double AnovaProcess::chance_any_below(std::span<const Config* const> cs, std::span<const double> levels,
                                      std::size_t draws, std::uint64_t seed) const {
    const std::size_t n = rows_.size(), m = cs.size();
    if (m == 0 || draws == 0) return 0.0;
    // The joint mean and covariance at the cs given the rows: prior - V^T V with V = L^-1 K(rows, cs).
    std::vector<double> means(m), v(m * n), cov(m * m), k;
    for (std::size_t i = 0; i < m; ++i) {
        means[i] = mean(*cs[i], k);
        solve_lower(chol_, n, k);
        std::copy(k.begin(), k.end(), v.begin() + static_cast<std::ptrdiff_t>(i * n));
    }
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j <= i; ++j) {
            const auto [s, q] = sums(*cs[i], *cs[j], hyper_.length);
            double c = covariance(s, q, hyper_);
            for (std::size_t r = 0; r < n; ++r) c -= v[i * n + r] * v[j * n + r];
            cov[i * m + j] = cov[j * m + i] = c;
        }
    // Rounding leaves the posterior covariance short of positive definite where the rows pin
    // values down: a jitter far below the noise.
    std::vector<double> chol;
    for (double jitter = 1e-9 * variance_;; jitter *= 100) {
        chol = cov;
        for (std::size_t i = 0; i < m; ++i) chol[i * m + i] += jitter;
        if (cholesky(chol, m)) break;
        if (jitter > noise_) return 1.0;  // cannot happen for a covariance; claim nothing
    }
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    std::vector<double> z(m);
    std::size_t below = 0;
    for (std::size_t d = 0; d < draws; ++d) {
        // Values one at a time (row i of L needs z up to i): a draw ends at its first one below.
        for (std::size_t i = 0; i < m; ++i) {
            z[i] = normal(rng);
            double f = means[i];
            for (std::size_t j = 0; j <= i; ++j) f += chol[i * m + j] * z[j];
            if (f < levels[i]) {
                ++below;
                break;
            }
        }
    }
    return static_cast<double>(below) / static_cast<double>(draws);
}

}  // namespace memwall
