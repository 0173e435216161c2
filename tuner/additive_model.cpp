#include "tuner/additive_model.hpp"

#include <cmath>

namespace memwall {

namespace {
constexpr int kSweeps = 8;

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
    double ss_total = 0;
    for (std::size_t i = 0; i < n; ++i) ss_total += (targets[i] - mu_) * (targets[i] - mu_);
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
        const double seen = n[v] + 0.5 * ((v > 0 ? n[v - 1] : 0.0) + (v + 1 < n.size() ? n[v + 1] : 0.0));
        var += scale_[p] / (1.0 + seen);
    }
    return std::sqrt(var);
}

}  // namespace memwall
