#include "stats/bootstrap.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace memwall {

namespace {

double median_in_place(std::vector<double>& v) {
    if (v.empty()) return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1) return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2;
}

std::size_t count_samples(const Repetitions& s) {
    std::size_t n = 0;
    for (const auto& rep : s) n += rep.size();
    return n;
}

// One hierarchical resample of a side into `pool`, and its median: repetitions drawn with
// replacement (or the `chosen` ones), then samples within each.
double resampled_median(const std::vector<const std::vector<double>*>& reps, const std::vector<std::size_t>* chosen,
                        std::mt19937_64& rng, std::vector<double>& pool) {
    pool.clear();
    for (std::size_t r = 0; r < reps.size(); ++r) {
        const std::vector<double>& rep = *reps[chosen ? (*chosen)[r] : rng() % reps.size()];
        for (std::size_t i = 0; i < rep.size(); ++i) pool.push_back(rep[rng() % rep.size()]);
    }
    return median_in_place(pool);
}

void choose(std::size_t count, std::mt19937_64& rng, std::vector<std::size_t>& chosen) {
    chosen.resize(count);
    for (std::size_t& r : chosen) r = rng() % count;
}

std::vector<const std::vector<double>*> non_empty(const Repetitions& s) {
    std::vector<const std::vector<double>*> out;
    for (const auto& rep : s)
        if (!rep.empty()) out.push_back(&rep);
    return out;
}

}  // namespace

std::vector<double> pooled_samples(const Repetitions& samples) {
    std::vector<double> all;
    all.reserve(count_samples(samples));
    for (const auto& rep : samples) all.insert(all.end(), rep.begin(), rep.end());
    return all;
}

double pooled_median(const Repetitions& samples) {
    std::vector<double> all = pooled_samples(samples);
    return median_in_place(all);
}

namespace {

// Unpaired, each side's repetitions are drawn on their own; paired, once for both sides.
RatioInterval bootstrap(const Repetitions& base, const Repetitions& candidate, double confidence, int resamples,
                        std::uint64_t seed, bool paired) {
    if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("bootstrap: confidence outside (0, 1)");
    if (resamples < 1) throw std::invalid_argument("bootstrap: resamples must be >= 1");
    const auto b = non_empty(base), c = non_empty(candidate);
    if (b.empty() || c.empty()) throw std::invalid_argument("bootstrap: a side has no samples");
    if (paired && (b.size() != base.size() || c.size() != candidate.size() || b.size() != c.size()))
        throw std::invalid_argument("bootstrap: paired sides need the same number of non-empty repetitions");

    std::mt19937_64 rng(seed);
    RatioInterval out;
    out.replicates.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> pool;
    pool.reserve(std::max(count_samples(base), count_samples(candidate)));
    std::vector<std::size_t> chosen;
    for (int i = 0; i < resamples; ++i) {
        if (paired) choose(b.size(), rng, chosen);
        const double mb = resampled_median(b, paired ? &chosen : nullptr, rng, pool);
        const double mc = resampled_median(c, paired ? &chosen : nullptr, rng, pool);
        out.replicates.push_back(mc / mb);
    }
    std::vector<double> sorted = out.replicates;
    std::sort(sorted.begin(), sorted.end());
    const double tail = (1 - confidence) / 2;
    out.ci = {quantile_sorted(sorted, tail), quantile_sorted(sorted, 1 - tail)};
    return out;
}

}  // namespace

RatioInterval bootstrap_ratio(const Repetitions& base, const Repetitions& candidate, double confidence, int resamples,
                              std::uint64_t seed) {
    return bootstrap(base, candidate, confidence, resamples, seed, false);
}

RatioInterval bootstrap_ratio_paired(const Repetitions& base, const Repetitions& candidate, double confidence,
                                     int resamples, std::uint64_t seed) {
    return bootstrap(base, candidate, confidence, resamples, seed, true);
}

}  // namespace memwall
