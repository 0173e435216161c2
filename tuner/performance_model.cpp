#include "tuner/performance_model.hpp"

#include <algorithm>
#include <cmath>

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
// Counts are exact: smooth and shrink their effects only lightly.
constexpr AdditiveModel::Penalties kCountPenalties{0.05, 0.01};

// Evaluations from one source list their counters in the same order: try `hint` first.
const Counter* counter_named(const Evaluation& e, const std::string& name, std::size_t hint) {
    if (hint < e.counters.size() && e.counters[hint].name == name) return &e.counters[hint];
    return find_counter(e.counters, name);
}

}  // namespace

PerformanceModel::PerformanceModel(const TuningSpace& space)
    : space_(space), levels_(levels_of(space)), additive_(levels_), rest_(levels_), failure_(levels_) {}

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
    fit_counters(h);
    if (!counters_.empty())
        for (std::size_t i = 0; i < y.size(); ++i) y[i] -= measured_log_bound(*ok[i]);
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
    const Prediction rest = rest_.predict(c);
    const double unseen = additive_.sd(c);
    Prediction p{rest.mean, std::sqrt(rest.sd * rest.sd + unseen * unseen)};
    if (!counters_.empty()) p.mean += log_bound(c);
    // A likely failure counts as twice as slow: the search keeps out of failing regions.
    if (any_failed_) p.mean += std::log(2.0) * failure_.predict(c).mean;
    return p;
}

}  // namespace memwall
