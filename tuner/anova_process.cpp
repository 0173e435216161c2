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
// The main amplitudes lie within a factor of kMainRatio of each other, and their logs are a
// priori normal about their mean with a spread of a factor of 10, because free amplitudes rule
// out a parameter whose few measured values agree though its unmeasured ones differ: without the
// bound, 3 of 20 replays of the A100 convolution recording stop 7-24% short (one, after 88
// evaluations, with amplitudes 100x apart), and 2 of 20 seeds on the tests' synthetic bowl 20% short.
constexpr double kMainRatio = 10;
constexpr double kMainSpread = std::numbers::ln10;
// A measurement's spread is taken as at least this (0.2%): the covariance stays well conditioned.
constexpr double kLeastNoise = 0.002;
// Up to this many rows every point of the grid with one main amplitude is tried (864 small
// factorisations) before the search among neighbours; beyond, that search starts from the last
// fit's choice.
constexpr std::size_t kWholeGridRows = 32;

}  // namespace

AnovaProcess::AnovaProcess(std::vector<std::size_t> levels) : levels_(std::move(levels)) {
    for (std::size_t p = 0; p < levels_.size(); ++p)
        if (levels_[p] > 1) varying_.push_back(p);  // a single value tells configurations apart by nothing
    hyper_ = {std::vector<std::size_t>(levels_.size(), 3), 1, 2, 0};
    const std::size_t most = levels_.empty() ? 1 : *std::max_element(levels_.begin(), levels_.end());
    for (double length : kLength) {
        power_.emplace_back();
        for (std::size_t d = 0; d < most; ++d) power_.back().push_back(std::exp(-static_cast<double>(d) / length));
    }
}

double AnovaProcess::covariance(const Config& a, const Config& b) const {
    double main = 0, sum = 0, squares = 0;
    bool same = true;
    for (std::size_t p : varying_) {
        const std::size_t d = a[p] > b[p] ? a[p] - b[p] : b[p] - a[p];
        const double r = power_[hyper_.length][d];
        main += kMain[hyper_.main[p]] * r;
        sum += r;
        squares += r * r;
        same = same && d == 0;
    }
    const double own = same ? kNugget[hyper_.nugget] : 0.0;
    return (main + kInteraction[hyper_.interaction] * 0.5 * (sum * sum - squares) + own) * variance_;
}

bool AnovaProcess::mains_within_ratio(const Hyper& h) const {
    double least = kMain.back(), most = kMain.front();
    for (std::size_t p : varying_) {
        least = std::min(least, kMain[h.main[p]]);
        most = std::max(most, kMain[h.main[p]]);
    }
    return varying_.empty() || most <= kMainRatio * least * (1 + 1e-9);
}

double AnovaProcess::log_prior(const Hyper& h) const {
    if (varying_.empty()) return 0.0;
    double mean = 0;
    for (std::size_t p : varying_) mean += std::log(kMain[h.main[p]]) / static_cast<double>(varying_.size());
    double sum = 0;
    for (std::size_t p : varying_) sum += std::pow(std::log(kMain[h.main[p]]) - mean, 2);
    return -0.5 * sum / (kMainSpread * kMainSpread);
}

double AnovaProcess::condition(const Hyper& h, const Design& d, std::vector<double>& chol,
                               std::vector<double>& alpha) const {
    const std::size_t n = rows_.size(), v = varying_.size();
    std::vector<const double*> r(v);
    std::vector<double> a(v);
    for (std::size_t k = 0; k < v; ++k) {
        r[k] = d.r[h.length][k].data();
        a[k] = kMain[h.main[varying_[k]]];
    }
    const double b = kInteraction[h.interaction];
    chol.resize(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) {
            double main = 0, sum = 0, squares = 0;
            for (std::size_t k = 0; k < v; ++k) {
                const double x = r[k][i * n + j];
                main += a[k] * x;
                sum += x;
                squares += x * x;
            }
            chol[i * n + j] = chol[j * n + i] = (main + b * 0.5 * (sum * sum - squares)) * variance_;
        }
    // Rows are distinct configurations: each one's own part lies on the diagonal alone.
    for (std::size_t i = 0; i < n; ++i) chol[i * n + i] += kNugget[h.nugget] * variance_ + noise_;
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
    const std::size_t v = varying_.size();
    d.r.assign(kLength.size(), std::vector<std::vector<double>>(v, std::vector<double>(n * n)));
    for (std::size_t l = 0; l < kLength.size(); ++l)
        for (std::size_t k = 0; k < v; ++k) {
            const std::size_t p = varying_[k];
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j)
                    d.r[l][k][i * n + j] =
                        power_[l][rows_[i][p] > rows_[j][p] ? rows_[i][p] - rows_[j][p] : rows_[j][p] - rows_[i][p]];
        }

    std::vector<double> chol, alpha;
    double best = condition(hyper_, d, chol_, alpha_) + log_prior(hyper_);
    const auto consider = [&](const Hyper& h) {
        if (!mains_within_ratio(h)) return;
        const double ll = condition(h, d, chol, alpha) + log_prior(h);
        if (ll > best) {
            best = ll;
            hyper_ = h;
            chol_.swap(chol);
            alpha_.swap(alpha);
        }
    };
    // A few rows: every point of the grid with one amplitude and length for every main effect.
    const std::size_t d_all = levels_.size();
    if (n <= kWholeGridRows) {
        Hyper g{std::vector<std::size_t>(d_all), 0, 0, 0};
        for (std::size_t m = 0; m < kMain.size(); ++m) {
            std::fill(g.main.begin(), g.main.end(), m);
            for (g.length = 0; g.length < kLength.size(); ++g.length)
                for (g.interaction = 0; g.interaction < kInteraction.size(); ++g.interaction)
                    for (g.nugget = 0; g.nugget < kNugget.size(); ++g.nugget) consider(g);
        }
    }
    // Then coordinate steps to a neighbour on the grid while one is likelier, each parameter's
    // main amplitude a coordinate of its own.
    std::vector<std::pair<std::size_t*, std::size_t>> axes;  // a coordinate of `h` below, its grid's size
    Hyper from, h;
    do {
        from = hyper_;
        h = from;
        axes = {{&h.interaction, kInteraction.size()}, {&h.length, kLength.size()}, {&h.nugget, kNugget.size()}};
        for (std::size_t p : varying_) axes.emplace_back(&h.main[p], kMain.size());
        for (const auto& [value, size] : axes)
            for (int step : {-1, 1}) {
                const std::size_t was = *value;
                if ((step < 0 && was == 0) || (step > 0 && was + 1 == size)) continue;
                *value = static_cast<std::size_t>(static_cast<int>(was) + step);
                consider(h);
                *value = was;
            }
    } while (!(from == hyper_));
}

double AnovaProcess::mean(const Config& c, std::vector<double>& k) const {
    k.resize(rows_.size());
    double m = mean_;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        k[i] = covariance(c, rows_[i]);
        m += k[i] * alpha_[i];
    }
    return m;
}

double AnovaProcess::variance(const Config& c, std::vector<double>& k) const {
    double var = covariance(c, c);
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
    if (level < m - 8 * std::sqrt(covariance(c, c))) return 0.0;  // below 1e-15 before any measurement
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
            double c = covariance(*cs[i], *cs[j]);
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
