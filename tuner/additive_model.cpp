#include "tuner/additive_model.hpp"

#include <cmath>

namespace memwall {

namespace {
constexpr int kSweeps = 8;
// Below this a residual variance is measurement noise that one more measurement would not shrink
// (a 1% spread of log-time).
constexpr double kResidualFloor = 1e-4;

// Minimises sum_k (count_k f_k^2 - 2 sum_k f_k) + smooth sum_k (f_{k+1} - f_k)^2 + shrink sum_k f_k^2:
// a tridiagonal system, solved by the Thomas algorithm.
void smooth_effects(const std::vector<double>& sum, const std::vector<double>& count, double smooth, double shrink,
                    std::vector<double>& f) {
    const std::size_t n = f.size();
    std::vector<double> c(n), d(n);
    for (std::size_t k = 0; k < n; ++k) {
        const double neighbours = static_cast<double>((k > 0) + (k + 1 < n));
        const double diag = count[k] + shrink + smooth * neighbours;
        const double lower = k > 0 ? -smooth : 0.0;
        const double denom = diag - lower * (k > 0 ? c[k - 1] : 0.0);
        c[k] = (k + 1 < n ? -smooth : 0.0) / denom;
        d[k] = (sum[k] - lower * (k > 0 ? d[k - 1] : 0.0)) / denom;
    }
    for (std::size_t k = n; k-- > 0;) f[k] = d[k] - (k + 1 < n ? c[k] * f[k + 1] : 0.0);
}

// The trace of the smoother that smooth_effects applies to the measurements: sum_k count_k
// [A^-1]_kk for its tridiagonal matrix A, each column of A^-1 from one solve.
double smoother_trace(const std::vector<double>& count, double smooth, double shrink) {
    const std::size_t n = count.size();
    std::vector<double> unit(n, 0.0), column(n);
    double trace = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (count[k] == 0) continue;
        unit[k] = 1;
        smooth_effects(unit, count, smooth, shrink, column);
        unit[k] = 0;
        trace += count[k] * column[k];
    }
    return trace;
}
}  // namespace

AdditiveModel::AdditiveModel(std::vector<std::size_t> levels, Penalties penalties)
    : levels_(std::move(levels)), penalties_(penalties) {
    for (std::size_t l : levels_) {
        effect_.emplace_back(l, 0.0);
        scale_.push_back(0.0);
        count_.emplace_back(l, 0.0);
    }
}

void AdditiveModel::fit(std::span<const Config* const> rows, std::span<const double> targets) {
    const std::size_t n = rows.size(), d = levels_.size();
    for (std::size_t p = 0; p < d; ++p) {
        std::fill(effect_[p].begin(), effect_[p].end(), 0.0);
        std::fill(count_[p].begin(), count_[p].end(), 0.0);
    }
    mu_ = 0;
    if (n == 0) return;
    for (double y : targets) mu_ += y;
    mu_ /= static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t p = 0; p < d; ++p) count_[p][(*rows[i])[p]] += 1;

    std::vector<double> residual(n);
    for (std::size_t i = 0; i < n; ++i) residual[i] = targets[i] - mu_;
    std::vector<double> sum;
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
        for (std::size_t p = 0; p < d; ++p) {
            if (levels_[p] < 2) continue;
            // Partial residual of p: add its current effect back, refit it, take it out again.
            sum.assign(levels_[p], 0.0);
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint16_t v = (*rows[i])[p];
                sum[v] += residual[i] + effect_[p][v];
            }
            std::vector<double> updated(levels_[p]);
            smooth_effects(sum, count_[p], penalties_.smooth, penalties_.shrink, updated);
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint16_t v = (*rows[i])[p];
                residual[i] += effect_[p][v] - updated[v];
            }
            effect_[p] = std::move(updated);
        }
    }
    double ss_total = 0, ss_residual = 0;
    for (std::size_t i = 0; i < n; ++i) {
        ss_total += (targets[i] - mu_) * (targets[i] - mu_);
        ss_residual += residual[i] * residual[i];
    }
    const double prior = ss_total / static_cast<double>(n);
    // How much each parameter matters: the spread of its effects over the values measured,
    // pulled towards the total spread while few values were measured.
    for (std::size_t p = 0; p < d; ++p) {
        double sum_e = 0, sum_e2 = 0, seen = 0;
        for (std::size_t v = 0; v < levels_[p]; ++v) {
            if (count_[p][v] == 0) continue;
            sum_e += effect_[p][v];
            sum_e2 += effect_[p][v] * effect_[p][v];
            seen += 1;
        }
        const double var = seen > 0 ? std::max(0.0, sum_e2 / seen - (sum_e / seen) * (sum_e / seen)) : 0.0;
        const double m = std::max(0.0, seen - 1);
        scale_[p] = (m * var + prior) / (m + 1);
    }
    // What the additive fit leaves unexplained, per measurement: how far one measurement of a
    // value tells its effect. Smoothing ties neighbouring effects, so the fit spends fewer degrees
    // of freedom than it has effects: each smoother's trace, less the constant it shares with mu.
    // Until there are more measurements than that, the total spread.
    double dof = 1;
    for (std::size_t p = 0; p < d; ++p)
        if (levels_[p] > 1) dof += std::max(0.0, smoother_trace(count_[p], penalties_.smooth, penalties_.shrink) - 1);
    residual_var_ = static_cast<double>(n) > dof + 1 ? ss_residual / (static_cast<double>(n) - dof) : prior;
}

double AdditiveModel::predict(const Config& c) const {
    double y = mu_;
    for (std::size_t p = 0; p < levels_.size(); ++p) y += effect_[p][c[p]];
    return y;
}

double AdditiveModel::sd(const Config& c) const {
    double var = 0;
    for (std::size_t p = 0; p < levels_.size(); ++p) {
        if (levels_[p] < 2) continue;
        const auto& n = count_[p];
        const std::size_t v = c[p];
        // An effect's posterior variance: its prior (the spread of p's effects), the n[v]
        // measurements of what the additive fit leaves unexplained, and the neighbours' values,
        // which tell it only as far as effects are smooth (each half a draw from that spread).
        if (scale_[p] <= 0) continue;
        const double neighbours = 0.5 * ((v > 0 ? n[v - 1] : 0.0) + (v + 1 < n.size() ? n[v + 1] : 0.0));
        var += 1.0 / ((1.0 + neighbours) / scale_[p] + n[v] / std::max(residual_var_, kResidualFloor));
    }
    return std::sqrt(var);
}

}  // namespace memwall
