#include "tuner/performance_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace memwall {

namespace {

std::vector<std::size_t> levels_of(const TuningSpace& s) {
    std::vector<std::size_t> l;
    for (const auto& p : s.parameters()) l.push_back(p.values.size());
    return l;
}

// Counters that measure an amount of work or traffic, which grows with what a configuration
// does; percentages and ratios describe how well it did it and bound nothing.
bool is_extensive(const Counter& c) {
    return c.unit == "B" || c.unit == "FLOP" || c.unit == "inst" || c.unit == "requests" || c.unit == "wavefronts";
}

constexpr double kNone = -1e300;
// Pull of the work model's weights towards equal shares, in squared log-counts: it fades once a
// few configurations that differ in their counts are measured.
constexpr double kWorkRidge = 1.0;

// Evaluations from one source list their counters in the same order: try `hint` first.
const Counter* counter_named(const Evaluation& e, const std::string& name, std::size_t hint) {
    if (hint < e.counters.size() && e.counters[hint].name == name) return &e.counters[hint];
    return find_counter(e.counters, name);
}

// Solves a x = b for a symmetric positive definite `a` (Cholesky; a is overwritten).
std::vector<double> solve_spd(std::vector<std::vector<double>> a, std::vector<double> b) {
    const std::size_t n = b.size();
    for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t k = 0; k < j; ++k) a[j][j] -= a[j][k] * a[j][k];
        a[j][j] = std::sqrt(a[j][j]);
        for (std::size_t i = j + 1; i < n; ++i) {
            for (std::size_t k = 0; k < j; ++k) a[i][j] -= a[i][k] * a[j][k];
            a[i][j] /= a[j][j];
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < i; ++k) b[i] -= a[i][k] * b[k];
        b[i] /= a[i][i];
    }
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t k = i + 1; k < n; ++k) b[i] -= a[k][i] * b[k];
        b[i] /= a[i][i];
    }
    return b;
}

double median_of(std::vector<double> xs) {
    const auto mid = xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2);
    std::nth_element(xs.begin(), mid, xs.end());
    return *mid;
}

}  // namespace

PerformanceModel::PerformanceModel(const TuningSpace& space, const CounterPrior* prior)
    : space_(space), levels_(levels_of(space)), additive_(levels_), rest_(levels_), failure_(levels_) {
    if (!prior || prior->empty() || space.size() == 0) return;
    if (prior->values.size() != space.size()) throw std::invalid_argument("the counter prior does not cover the space");
    // Each count that varies over the space, as log((1 + count) / (1 + its median)).
    const std::size_t n = space.size();
    std::vector<std::vector<double>> columns;
    for (std::size_t k = 0; k < prior->names.size(); ++k) {
        std::vector<double> column(n);
        for (std::size_t id = 0; id < n; ++id) column[id] = std::log1p(prior->values[id][k]);
        if (std::all_of(column.begin(), column.end(), [&](double v) { return v == column[0]; })) continue;
        const double m = median_of(column);
        for (double& v : column) v -= m;
        columns.push_back(std::move(column));
    }
    if (columns.empty()) return;
    work_.features.assign(n, std::vector<double>(columns.size()));
    for (std::size_t id = 0; id < n; ++id)
        for (std::size_t k = 0; k < columns.size(); ++k) work_.features[id][k] = columns[k][id];
    work_.weights.assign(columns.size(), 1.0 / static_cast<double>(columns.size()));
}

void PerformanceModel::fit(const History& h, std::mt19937_64& rng) {
    std::vector<const Config*> rows, all_rows;
    std::vector<double> y, failed;
    std::vector<const Evaluation*> ok;
    for (std::size_t i = 0; i < h.evaluations(); ++i) {
        const auto& entry = h.entry(i);
        all_rows.push_back(&space_.config(entry.config));
        failed.push_back(entry.evaluation.ok() ? 0.0 : 1.0);
        if (!entry.evaluation.ok()) continue;
        rows.push_back(&space_.config(entry.config));
        y.push_back(std::log(entry.evaluation.seconds));
        ok.push_back(&entry.evaluation);
    }
    additive_.fit(rows, y);
    if (has_prior()) {
        fit_work(h);
        for (std::size_t i = 0, j = 0; i < h.evaluations(); ++i)
            if (h.entry(i).evaluation.ok()) y[j++] -= log_work(h.entry(i).config);
    } else {
        fit_counters(h);
        if (!counters_.empty())
            for (std::size_t i = 0; i < y.size(); ++i) y[i] -= measured_log_bound(*ok[i]);
    }
    rest_.fit(rows, y, rng);
    any_failed_ = rows.size() < all_rows.size();
    if (any_failed_) failure_.fit(all_rows, failed, rng);
}

void PerformanceModel::fit_counters(const History& h) {
    counters_.clear();
    std::vector<std::pair<std::string, std::size_t>> names;  // and position
    for (std::size_t i = 0; i < h.evaluations() && names.empty(); ++i) {
        const auto& cs = h.entry(i).evaluation.counters;
        for (std::size_t k = 0; k < cs.size(); ++k)
            if (is_extensive(cs[k])) names.emplace_back(cs[k].name, k);
    }
    for (const auto& [name, position] : names) {
        std::vector<const Config*> rows;
        std::vector<double> y;
        double log_rate = kNone, top = 0;
        for (std::size_t i = 0; i < h.evaluations(); ++i) {
            const auto& e = h.entry(i).evaluation;
            const Counter* c = e.ok() ? counter_named(e, name, position) : nullptr;
            if (!c) continue;
            rows.push_back(&space_.config(h.entry(i).config));
            y.push_back(std::log1p(c->value));
            log_rate = std::max(log_rate, std::log1p(c->value) - std::log(e.seconds));
            top = std::max(top, c->value);
        }
        if (top <= 0) continue;  // a counter that stayed at zero bounds nothing
        CounterModel m{name, position, AdditiveModel(levels_, kCountPenalties), log_rate};
        m.model.fit(rows, y);
        counters_.push_back(std::move(m));
    }
}

void PerformanceModel::fit_work(const History& h) {
    const std::size_t k = work_.weights.size();
    const double equal = 1.0 / static_cast<double>(k);
    std::vector<std::size_t> ids;
    std::vector<double> y;
    for (std::size_t i = 0; i < h.evaluations(); ++i)
        if (const auto& e = h.entry(i); e.evaluation.ok()) {
            ids.push_back(e.config);
            y.push_back(std::log(e.evaluation.seconds));
        }
    if (ids.empty()) return;
    // Centred ridge regression of what equal weights leave unexplained on the features.
    const double n = static_cast<double>(ids.size());
    std::vector<double> mean_f(k, 0.0);
    double mean_r = 0;
    std::vector<double> r(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto& f = work_.features[ids[i]];
        r[i] = y[i];
        for (std::size_t a = 0; a < k; ++a) {
            r[i] -= equal * f[a];
            mean_f[a] += f[a] / n;
        }
        mean_r += r[i] / n;
    }
    std::vector<std::vector<double>> gram(k, std::vector<double>(k, 0.0));
    std::vector<double> rhs(k, 0.0);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto& f = work_.features[ids[i]];
        for (std::size_t a = 0; a < k; ++a) {
            rhs[a] += (f[a] - mean_f[a]) * (r[i] - mean_r);
            for (std::size_t b = 0; b <= a; ++b) gram[a][b] += (f[a] - mean_f[a]) * (f[b] - mean_f[b]);
        }
    }
    for (std::size_t a = 0; a < k; ++a) {
        gram[a][a] += kWorkRidge;
        for (std::size_t b = 0; b < a; ++b) gram[b][a] = gram[a][b];
    }
    const std::vector<double> d = solve_spd(std::move(gram), std::move(rhs));
    work_.intercept = mean_r;
    for (std::size_t a = 0; a < k; ++a) {
        work_.weights[a] = equal + d[a];
        work_.intercept -= mean_f[a] * d[a];
    }
}

double PerformanceModel::log_work(std::size_t id) const {
    if (!has_prior()) return 0.0;
    double w = work_.intercept;
    const auto& f = work_.features[id];
    for (std::size_t a = 0; a < f.size(); ++a) w += work_.weights[a] * f[a];
    return w;
}

double PerformanceModel::measured_log_bound(const Evaluation& e) const {
    double b = kNone;
    for (const auto& m : counters_)
        if (const Counter* c = counter_named(e, m.name, m.position)) b = std::max(b, std::log1p(c->value) - m.log_rate);
    return b == kNone ? 0.0 : b;
}

double PerformanceModel::log_bound(const Config& c) const {
    double b = kNone;
    for (const auto& m : counters_) b = std::max(b, m.model.predict(c) - m.log_rate);
    return b == kNone ? 0.0 : b;
}

std::vector<std::string> PerformanceModel::bound_counters() const {
    std::vector<std::string> names;
    for (const auto& m : counters_) names.push_back(m.name);
    return names;
}

Prediction PerformanceModel::predict(const Config& c) const {
    const auto id = space_.find(c);
    if (!id) throw std::invalid_argument("the configuration is not in the space");
    return predict(*id);
}

Prediction PerformanceModel::predict(std::size_t id) const {
    const Config& c = space_.config(id);
    const Prediction rest = rest_.predict(c);
    const double unseen = additive_.sd(c);
    Prediction p{rest.mean, std::sqrt(rest.sd * rest.sd + unseen * unseen)};
    if (has_prior())
        p.mean += log_work(id);
    else if (!counters_.empty())
        p.mean += log_bound(c);
    // A likely failure counts as twice as slow: the search keeps out of failing regions.
    if (any_failed_) p.mean += std::log(2.0) * failure_.predict(c).mean;
    return p;
}

}  // namespace memwall
