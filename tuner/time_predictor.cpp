#include "tuner/time_predictor.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "tuner/cholesky.hpp"

namespace memwall {

namespace {

// Counters that measure an amount of work or traffic, which grows with what a configuration
// does; percentages and ratios describe how well it did it and bound nothing.
bool is_extensive(const Counter& c) {
    return c.unit == "B" || c.unit == "FLOP" || c.unit == "inst" || c.unit == "requests" || c.unit == "wavefronts";
}

constexpr double kNone = -1e300;
// Pulls of the work model, in squared log-units: of the prior's slope towards 1 (it fades once a
// few configurations the prior tells apart are measured), and of each column's own weight
// towards the prior's (it needs many more: a handful of measurements cannot tell a dozen
// correlated counts apart).
constexpr double kSlopeRidge = 1.0;
constexpr double kDeviationRidge = 2.0;
// Errors of log(time) below this are noise, in which neither model is better than the other.
constexpr double kErrorFloor = 0.02;

// Evaluations from one source list their counters in the same order: try `hint` first.
const Counter* counter_named(const Evaluation& e, const std::string& name, std::size_t hint) {
    if (hint < e.counters.size() && e.counters[hint].name == name) return &e.counters[hint];
    return find_counter(e.counters, name);
}

double median_of(std::vector<double> xs) {
    const auto mid = xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2);
    std::nth_element(xs.begin(), mid, xs.end());
    return *mid;
}

}  // namespace

TimePredictor::TimePredictor(const TuningSpace& space, const Prior* prior)
    : space_(space),
      levels_(space.levels()),
      additive_(levels_),
      rest_(levels_),
      prior_rest_(levels_),
      failure_(levels_) {
    if (!prior || prior->empty() || space.size() == 0) return;
    const std::size_t n = space.size();
    if ((!prior->counters.empty() && prior->counters.values.size() != n) ||
        std::any_of(prior->devices.begin(), prior->devices.end(),
                    [&](const DevicePrior& d) { return d.log_seconds.size() != n; }))
        throw std::invalid_argument("the prior does not cover the space");
    // Each column that varies over the space, less its median: log(1 + count), log(seconds elsewhere).
    std::vector<std::vector<double>> columns;
    std::vector<bool> is_time;
    const auto add = [&](std::vector<double> column, bool time) {
        if (std::all_of(column.begin(), column.end(), [&](double v) { return v == column[0]; })) return;
        const double m = median_of(column);
        for (double& v : column) v -= m;
        columns.push_back(std::move(column));
        is_time.push_back(time);
    };
    for (std::size_t k = 0; k < prior->counters.names.size(); ++k) {
        std::vector<double> column(n);
        for (std::size_t id = 0; id < n; ++id) column[id] = std::log1p(prior->counters.values[id][k]);
        add(std::move(column), false);
    }
    for (const DevicePrior& d : prior->devices) add(d.log_seconds, true);
    if (columns.empty()) return;
    work_.features.assign(n, std::vector<double>(columns.size()));
    for (std::size_t id = 0; id < n; ++id)
        for (std::size_t k = 0; k < columns.size(); ++k) work_.features[id][k] = columns[k][id];
    // Another device's time already holds what the counts cost: the counts start at no weight then.
    const auto times = static_cast<double>(std::count(is_time.begin(), is_time.end(), true));
    for (bool t : is_time)
        work_.initial.push_back(times > 0 ? (t ? 1.0 / times : 0.0) : 1.0 / static_cast<double>(columns.size()));
    work_.weights = work_.initial;
    work_.failed.assign(n, 0.0);
    work_.has_devices = !prior->devices.empty();
    for (const DevicePrior& d : prior->devices)
        for (std::size_t id = 0; id < n; ++id)
            if (d.source[id] == DevicePrior::Source::failed)
                work_.failed[id] += 1.0 / static_cast<double>(prior->devices.size());
}

void TimePredictor::fit(const History& h, std::mt19937_64& rng) {
    if (has_prior()) score_members(h);
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
        std::vector<double> rest = y;
        for (std::size_t i = 0, j = 0; i < h.evaluations(); ++i)
            if (h.entry(i).evaluation.ok()) rest[j++] -= log_work(h.entry(i).config);
        prior_rest_.fit(rows, rest, rng);
    }
    fit_counters(h);
    if (!counters_.empty())
        for (std::size_t i = 0; i < y.size(); ++i) y[i] -= measured_log_bound(*ok[i]);
    rest_.fit(rows, y, rng);
    any_failed_ = rows.size() < all_rows.size();
    if (any_failed_) failure_.fit(all_rows, failed, rng);
    fitted_ = true;
}

// Scores both models on the ok evaluations that arrived since the last fit, with what that fit
// predicted for them: out of sample, as each was a proposal then.
void TimePredictor::score_members(const History& h) {
    for (; scored_ < h.evaluations(); ++scored_) {
        const auto& e = h.entry(scored_);
        if (!fitted_ || !e.evaluation.ok()) continue;
        const double y = std::log(e.evaluation.seconds);
        const Shared k = shared(space_.config(e.config));
        sse_online_ += std::pow(y - predict_online(e.config, k).mean, 2);
        sse_prior_ += std::pow(y - predict_with_prior(e.config, k).mean, 2);
        ++scored_ok_;
    }
}

double TimePredictor::prior_weight() const {
    if (!has_prior()) return 0.0;
    if (scored_ok_ == 0) return 1.0;
    // The log-likelihood ratio of the two under Gaussian errors of their pooled variance, from
    // even odds (a head start for the prior cost more on priors that mislead than it gained on
    // those that help): each scored measurement moves it by at most one nat, whatever the
    // errors' scale.
    const double m = static_cast<double>(scored_ok_);
    const double log_odds = m * (sse_online_ - sse_prior_) / (sse_online_ + sse_prior_ + m * kErrorFloor * kErrorFloor);
    return 1.0 / (1.0 + std::exp(-log_odds));
}

void TimePredictor::fit_counters(const History& h) {
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

void TimePredictor::fit_work(const History& h) {
    const std::size_t k = work_.weights.size();
    std::vector<std::size_t> ids;
    std::vector<double> y;
    for (std::size_t i = 0; i < h.evaluations(); ++i)
        if (const auto& e = h.entry(i); e.evaluation.ok()) {
            ids.push_back(e.config);
            y.push_back(std::log(e.evaluation.seconds));
        }
    if (ids.empty()) return;
    // First how much the prior's own prediction (the initial weights' sum, z) explains: one
    // slope, pulled towards 1, which data settle within a few measurements, so a prior that
    // predicts nothing is soon scaled down to nothing. Then, in a ridge regression pulled harder
    // towards 0, which columns deserve more or less weight than the prior gave them.
    const double n = static_cast<double>(ids.size());
    std::vector<double> z(ids.size(), 0.0);
    double mean_z = 0, mean_y = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        for (std::size_t a = 0; a < k; ++a) z[i] += work_.initial[a] * work_.features[ids[i]][a];
        mean_z += z[i] / n;
        mean_y += y[i] / n;
    }
    double szz = 0, szy = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        szz += (z[i] - mean_z) * (z[i] - mean_z);
        szy += (z[i] - mean_z) * (y[i] - mean_y);
    }
    const double slope = (szy + kSlopeRidge) / (szz + kSlopeRidge);
    std::vector<double> mean_f(k, 0.0);
    double mean_r = 0;
    std::vector<double> r(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto& f = work_.features[ids[i]];
        r[i] = y[i] - slope * z[i];
        for (std::size_t a = 0; a < k; ++a) mean_f[a] += f[a] / n;
        mean_r += r[i] / n;
    }
    std::vector<double> gram(k * k, 0.0);  // row-major
    std::vector<double> rhs(k, 0.0);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto& f = work_.features[ids[i]];
        for (std::size_t a = 0; a < k; ++a) {
            rhs[a] += (f[a] - mean_f[a]) * (r[i] - mean_r);
            for (std::size_t b = 0; b <= a; ++b) gram[a * k + b] += (f[a] - mean_f[a]) * (f[b] - mean_f[b]);
        }
    }
    for (std::size_t a = 0; a < k; ++a) {
        gram[a * k + a] += kDeviationRidge;
        for (std::size_t b = 0; b < a; ++b) gram[b * k + a] = gram[a * k + b];
    }
    const std::vector<double> d = solve_spd(std::move(gram), std::move(rhs));
    work_.intercept = mean_r;
    for (std::size_t a = 0; a < k; ++a) {
        work_.weights[a] = slope * work_.initial[a] + d[a];
        work_.intercept -= mean_f[a] * d[a];
    }
}

double TimePredictor::log_work(std::size_t id) const {
    if (!has_prior()) return 0.0;
    double w = work_.intercept;
    const auto& f = work_.features[id];
    for (std::size_t a = 0; a < f.size(); ++a) w += work_.weights[a] * f[a];
    return w;
}

double TimePredictor::measured_log_bound(const Evaluation& e) const {
    double b = kNone;
    for (const auto& m : counters_)
        if (const Counter* c = counter_named(e, m.name, m.position)) b = std::max(b, std::log1p(c->value) - m.log_rate);
    return b == kNone ? 0.0 : b;
}

double TimePredictor::log_bound(const Config& c) const {
    double b = kNone;
    for (const auto& m : counters_) b = std::max(b, m.model.predict(c) - m.log_rate);
    return b == kNone ? 0.0 : b;
}

std::vector<std::string> TimePredictor::bound_counters() const {
    std::vector<std::string> names;
    for (const auto& m : counters_) names.push_back(m.name);
    return names;
}

Prediction TimePredictor::predict(const Config& c) const {
    const auto id = space_.find(c);
    if (!id) throw std::invalid_argument("the configuration is not in the space");
    return predict(*id);
}

Prediction TimePredictor::predict(std::size_t id) const {
    const Shared k = shared(space_.config(id));
    if (!has_prior()) return predict_online(id, k);
    const double w = prior_weight();
    const Prediction p = predict_with_prior(id, k);
    if (w >= 1.0) return p;
    const Prediction o = predict_online(id, k);
    // The mixture's mean and spread: each model's spread, and their disagreement.
    const double mean = w * p.mean + (1 - w) * o.mean;
    const double var = w * p.sd * p.sd + (1 - w) * o.sd * o.sd + w * (1 - w) * (p.mean - o.mean) * (p.mean - o.mean);
    return {mean, std::sqrt(var)};
}

TimePredictor::Shared TimePredictor::shared(const Config& c) const {
    return {additive_.sd(c), any_failed_ ? failure_.predict(c).mean : 0.0};
}

Prediction TimePredictor::predict_online(std::size_t id, const Shared& k) const {
    const Config& c = space_.config(id);
    const Prediction rest = rest_.predict(c);
    Prediction p{rest.mean, std::sqrt(rest.sd * rest.sd + k.unseen * k.unseen)};
    if (!counters_.empty()) p.mean += log_bound(c);
    // A likely failure counts as twice as slow: the search keeps out of failing regions.
    if (any_failed_) p.mean += std::log(2.0) * k.failing;
    return p;
}

Prediction TimePredictor::predict_with_prior(std::size_t id, const Shared& k) const {
    const Prediction rest = prior_rest_.predict(space_.config(id));
    Prediction p{rest.mean + log_work(id), std::sqrt(rest.sd * rest.sd + k.unseen * k.unseen)};
    // Failures here, learned, and where the prior's devices failed, before any is seen here.
    double failing = work_.failed[id];
    if (any_failed_) failing = work_.has_devices ? 0.5 * (k.failing + failing) : k.failing;
    p.mean += std::log(2.0) * failing;
    return p;
}

}  // namespace memwall
