#include "tuner/tune_eval.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>

#include "core/errors.hpp"
#include "stats/statistics.hpp"
#include "tuner/replay.hpp"
#include "tuner/score.hpp"
#include "tuner/strategy.hpp"

namespace memwall {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Ends a run once the optimum is found and the score's budget is spent: nothing after that
// can change the results.
class StopAtOptimum final : public Strategy {
  public:
    StopAtOptimum(std::unique_ptr<Strategy> inner, double optimum, std::size_t budget)
        : inner_(std::move(inner)), optimum_(optimum), budget_(budget) {}

    std::optional<std::size_t> propose(const History& h) override {
        if (h.evaluations() >= budget_ && h.best_seconds() <= optimum_) return std::nullopt;
        return inner_->propose(h);
    }
    std::optional<double> improvement_chance(const History& h, double margin) override {
        return inner_->improvement_chance(h, margin);
    }
    bool judges() const override { return inner_->judges(); }

  private:
    std::unique_ptr<Strategy> inner_;
    double optimum_;
    std::size_t budget_;
};

struct RunResult {
    double score = 0;
    double within10 = kInf, within5 = kInf, optimum = kInf;  // evaluations needed
    double stopped = kInf;                                   // evaluations when the stopping rule stopped it
    double strategy_seconds = 0;
};

double evaluations_to(const Trace& trace, double threshold) {
    for (std::size_t t = 0; t < trace.entries.size(); ++t)
        if (trace.entries[t].best_seconds <= threshold) return static_cast<double>(t + 1);
    return kInf;
}

// Type-7 quantile, infinite when it touches a run that never got there.
double quantile_with_inf(const std::vector<double>& sorted, double q) {
    const double h = static_cast<double>(sorted.size() - 1) * q;
    if (!std::isfinite(sorted[static_cast<std::size_t>(std::ceil(h))])) return kInf;
    return quantile_sorted(sorted, q);
}

EvaluationsNeeded needed(std::vector<double> xs) {
    std::sort(xs.begin(), xs.end());
    EvaluationsNeeded n;
    n.q1 = quantile_with_inf(xs, 0.25);
    n.median = quantile_with_inf(xs, 0.5);
    n.q3 = quantile_with_inf(xs, 0.75);
    n.reached =
        static_cast<std::size_t>(std::count_if(xs.begin(), xs.end(), [](double x) { return std::isfinite(x); }));
    return n;
}

// median(a) / median(b), a run that never got there counting as infinitely many evaluations:
// infinite over infinite is 1 (both never did), anything else over infinite is 0.
double median_ratio(std::vector<double> a, std::vector<double> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const double x = quantile_with_inf(a, 0.5), y = quantile_with_inf(b, 0.5);
    if (std::isinf(y)) return std::isinf(x) ? 1.0 : 0.0;
    return x / y;
}

struct RatioEstimate {
    double ratio = 0, lo = 0, hi = 0;
};

// The ratio of medians with its 95% percentile-bootstrap interval, each side's seeds resampled
// with replacement on their own (runs of two strategies with one seed are not paired: their
// searches share nothing but the seed's number). Seeded, so a table is reproducible.
RatioEstimate bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b) {
    constexpr int kResamples = 2000;
    std::mt19937_64 rng(20261125);
    std::uniform_int_distribution<std::size_t> pick_a(0, a.size() - 1), pick_b(0, b.size() - 1);
    std::vector<double> ratios, ra(a.size()), rb(b.size());
    for (int i = 0; i < kResamples; ++i) {
        for (double& x : ra) x = a[pick_a(rng)];
        for (double& x : rb) x = b[pick_b(rng)];
        ratios.push_back(median_ratio(ra, rb));
    }
    std::sort(ratios.begin(), ratios.end());
    return {median_ratio(a, b), quantile_with_inf(ratios, 0.025), quantile_with_inf(ratios, 0.975)};
}

std::string file_name(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Whether `other` can be a prior of `target`: the same parameters, recorded on another device.
bool is_transferable(const RecordedSpace& other, const RecordedSpace& target) {
    if (other.device == target.device) return false;
    std::vector<std::string> a, b;
    for (const auto& p : other.space.parameters()) a.push_back(p.name);
    for (const auto& p : target.space.parameters()) b.push_back(p.name);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

std::string describe(const DevicePrior& d) {
    using S = DevicePrior::Source;
    return d.device + " (" + file_name(d.origin) + "): " + std::to_string(d.count(S::recorded)) + " recorded, " +
           std::to_string(d.count(S::failed)) + " failed there, " + std::to_string(d.count(S::estimated)) +
           " estimated";
}

// A tolerance so that "within 0%" of the optimum matches the optimum itself.
double threshold(double optimum, double fraction) { return optimum * (1.0 + fraction) * (1.0 + 1e-12); }

}  // namespace

TuneEvalTable tune_eval(const std::vector<const RecordedSpace*>& spaces, const std::vector<std::string>& strategies,
                        const TuneEvalOptions& options) {
    if (options.seeds == 0) throw UsageError("tune-eval needs at least one seed");
    if (!(options.stop_chance >= 0 && options.stop_chance <= 1))
        throw UsageError("the stop chance must be between 0 and 1");
    for (const auto& s : strategies) make_strategy(s, TuningSpace{}, 0);  // unknown names fail early
    const bool any_prior =
        std::any_of(strategies.begin(), strategies.end(), [](const std::string& s) { return uses_prior(s); });

    TuneEvalTable table;
    table.seeds = options.seeds;
    table.stop_chance = options.stop_chance;
    std::vector<RandomBaseline> baselines;
    std::vector<Prior> priors;
    std::vector<bool> prior_used(options.priors.size(), false);
    for (const RecordedSpace* rs : spaces) {
        baselines.emplace_back(*rs);
        Prior prior;
        if (any_prior) {
            prior.counters = counter_prior_from(*rs);
            for (std::size_t i = 0; i < options.priors.size(); ++i)
                if (const RecordedSpace& other = *options.priors[i]; is_transferable(other, *rs)) {
                    prior.devices.push_back(device_prior_from(other, rs->space));
                    prior_used[i] = true;
                }
        }
        priors.push_back(std::move(prior));
        const RandomBaseline& b = baselines.back();
        TuneEvalSpace s;
        s.name = file_name(rs->origin);
        s.device = rs->device;
        s.kernel = rs->kernel;
        s.size = rs->space.size();
        s.ok = rs->ok_count();
        s.optimum_seconds = b.optimum();
        s.median_seconds = b.median();
        s.budget = b.budget(options.budget_fraction);
        s.random_within10 = b.expected_draws_to(threshold(b.optimum(), 0.10));
        s.random_within5 = b.expected_draws_to(threshold(b.optimum(), 0.05));
        s.random_optimum = b.expected_draws_to(threshold(b.optimum(), 0.0));
        s.has_counters = std::any_of(rs->results.begin(), rs->results.end(),
                                     [](const Evaluation& e) { return !e.counters.empty(); });
        s.prior_counters = priors.back().counters.names;
        for (const DevicePrior& d : priors.back().devices) s.prior_devices.push_back(describe(d));
        table.spaces.push_back(std::move(s));
    }

    for (std::size_t i = 0; i < options.priors.size(); ++i)
        if (any_prior && !prior_used[i])
            throw UsageError("prior " + options.priors[i]->origin + " (" + options.priors[i]->device +
                             ") tunes the parameters of no space on another device");

    const std::size_t per_space = strategies.size() * options.seeds;
    const std::size_t tasks = spaces.size() * per_space;
    // A strategy given an empty prior repeats its prior-free twin's runs seed for seed: when the
    // twin is in the table too, its results are copied rather than run again.
    std::vector<std::size_t> copy_of(tasks), to_run;
    for (std::size_t task = 0; task < tasks; ++task) {
        const std::size_t si = task / per_space;
        const std::size_t ki = (task % per_space) / options.seeds;
        copy_of[task] = task;
        if (priors[si].empty() && uses_prior(strategies[ki])) {
            const auto twin = std::find(strategies.begin(), strategies.end(), without_prior(strategies[ki]));
            if (twin != strategies.end())
                copy_of[task] = si * per_space + static_cast<std::size_t>(twin - strategies.begin()) * options.seeds +
                                task % options.seeds;
        }
        if (copy_of[task] == task) to_run.push_back(task);
    }
    std::vector<RunResult> results(tasks);
    std::size_t done = 0;  // runs finished, counted under the progress lock
    const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
    std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::size_t i = 0; i < to_run.size(); ++i) {
        const std::size_t task = to_run[i];
        try {
            const std::size_t si = task / per_space;
            const std::size_t ki = (task % per_space) / options.seeds;
            const std::uint64_t seed = options.first_seed + task % options.seeds;
            const RecordedSpace& rs = *spaces[si];
            const RandomBaseline& b = baselines[si];
            const std::size_t budget = table.spaces[si].budget;
            ReplayObjective objective(rs);
            StopAtOptimum strategy(make_strategy(strategies[ki], rs.space, seed, &priors[si]), b.optimum(), budget);
            const Trace trace = tune(objective, strategy, Budget{options.max_evaluations, 0, 0, options.stop_chance});
            RunResult& r = results[task];
            r.score = willemsen_score(best_so_far(trace, budget, b.worst()), b);
            r.within10 = evaluations_to(trace, threshold(b.optimum(), 0.10));
            r.within5 = evaluations_to(trace, threshold(b.optimum(), 0.05));
            r.optimum = evaluations_to(trace, threshold(b.optimum(), 0.0));
            if (trace.stop_reason == StopReason::improvement_unlikely)
                r.stopped = static_cast<double>(trace.entries.size());
            for (const auto& e : trace.entries) r.strategy_seconds += e.strategy_seconds;
        } catch (...) {
#pragma omp critical(tune_eval_failure)
            if (!failure) failure = std::current_exception();
        }
        if (options.progress) {
#pragma omp critical(tune_eval_progress)
            options.progress(static_cast<double>(++done) / static_cast<double>(to_run.size()));
        }
    }
    if (failure) std::rethrow_exception(failure);
    for (std::size_t task = 0; task < tasks; ++task) results[task] = results[copy_of[task]];

    std::vector<double> score_sums(strategies.size(), 0.0);
    const auto within10_of = [&](std::size_t si, std::size_t ki) {
        std::vector<double> xs;
        for (std::size_t i = 0; i < options.seeds; ++i)
            xs.push_back(results[si * per_space + ki * options.seeds + i].within10);
        return xs;
    };
    for (std::size_t si = 0; si < spaces.size(); ++si) {
        for (std::size_t ki = 0; ki < strategies.size(); ++ki) {
            const std::size_t first = si * per_space + ki * options.seeds;
            TuneEvalRow row;
            row.strategy = strategies[ki];
            std::vector<double> scores, w10, w5, wopt, stopped;
            for (std::size_t i = 0; i < options.seeds; ++i) {
                const RunResult& r = results[first + i];
                scores.push_back(r.score);
                w10.push_back(r.within10);
                w5.push_back(r.within5);
                wopt.push_back(r.optimum);
                stopped.push_back(r.stopped);
                row.strategy_seconds += r.strategy_seconds / static_cast<double>(options.seeds);
            }
            const Summary s = summarize(scores);
            row.score = s.mean;
            row.score_sd = s.stddev;
            row.within10 = needed(w10);
            row.within5 = needed(w5);
            row.optimum = needed(wopt);
            row.stopped = needed(stopped);
            if (uses_prior(strategies[ki])) {
                const auto twin = std::find(strategies.begin(), strategies.end(), without_prior(strategies[ki]));
                if (twin != strategies.end()) {
                    const auto r = bootstrap_median_ratio(
                        w10, within10_of(si, static_cast<std::size_t>(twin - strategies.begin())));
                    row.versus = *twin;
                    row.versus_ratio = r.ratio;
                    row.versus_lo = r.lo;
                    row.versus_hi = r.hi;
                }
            }
            score_sums[ki] += row.score;
            table.spaces[si].rows.push_back(std::move(row));
        }
    }
    for (std::size_t ki = 0; ki < strategies.size(); ++ki)
        table.mean_scores.emplace_back(strategies[ki],
                                       spaces.empty() ? 0.0 : score_sums[ki] / static_cast<double>(spaces.size()));
    return table;
}

namespace {

std::string format(const char* fmt, auto... args) {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

std::string count_text(double x) {
    if (!std::isfinite(x)) return "never";
    return format(x == std::floor(x) ? "%.0f" : "%.1f", x);
}

std::string needed_text(const EvaluationsNeeded& n) {
    return count_text(n.median) + " [" + count_text(n.q1) + ", " + count_text(n.q3) + "]";
}

std::string ratio_text(double x) { return std::isfinite(x) ? format("%.2f", x) : "inf"; }

std::string seconds_text(double s) {
    if (s >= 1) return format("%.3g s", s);
    if (s >= 1e-3) return format("%.3g ms", s * 1e3);
    return format("%.3g us", s * 1e6);
}

}  // namespace

std::string render_tune_eval(const TuneEvalTable& table) {
    std::string out;
    for (const TuneEvalSpace& s : table.spaces) {
        out += s.name + ": " + s.kernel + " on " + s.device + ", " + std::to_string(s.size) + " configurations (" +
               std::to_string(s.ok) + " ok" + (s.has_counters ? ", with counters" : "") + ")\n";
        if (!s.prior_counters.empty())
            out += "  prior: " + std::to_string(s.prior_counters.size()) +
                   " device-independent counters of every configuration\n";
        for (const std::string& d : s.prior_devices) out += "  prior: the times on " + d + "\n";
        out += "  optimum " + seconds_text(s.optimum_seconds) + ", median " + seconds_text(s.median_seconds) +
               "; score budget " + std::to_string(s.budget) + " evaluations; " + std::to_string(table.seeds) +
               " seeds\n";
        const bool rule = table.stop_chance > 0;
        out += format("  %-13s %7s %6s  %-22s %-22s %-22s %s%s\n", "strategy", "score", "sd", "within 10% [IQR]",
                      "within 5% [IQR]", "optimum [IQR]", rule ? "stopped by the rule [IQR]  " : "", "ms/run");
        out +=
            format("  %-13s %7s %6s  %-22s %-22s %-22s\n", "random*", "0", "-", count_text(s.random_within10).c_str(),
                   count_text(s.random_within5).c_str(), count_text(s.random_optimum).c_str());
        for (const TuneEvalRow& r : s.rows) {
            const std::string stopped =
                rule
                    ? format("%-27s", (needed_text(r.stopped) + " (" + std::to_string(r.stopped.reached) + ")").c_str())
                    : "";
            out += format("  %-13s %7.3f %6.3f  %-22s %-22s %-22s %s%.1f\n", r.strategy.c_str(), r.score, r.score_sd,
                          needed_text(r.within10).c_str(), needed_text(r.within5).c_str(),
                          needed_text(r.optimum).c_str(), stopped.c_str(), r.strategy_seconds * 1e3);
        }
        for (const TuneEvalRow& r : s.rows)
            if (!r.versus.empty())
                out += format("  %s vs %s, evaluations to within 10%%: median ratio %s [%s, %s], %s\n",
                              r.strategy.c_str(), r.versus.c_str(), ratio_text(r.versus_ratio).c_str(),
                              ratio_text(r.versus_lo).c_str(), ratio_text(r.versus_hi).c_str(),
                              r.versus_hi < 1   ? "faster beyond the noise"
                              : r.versus_lo > 1 ? "slower beyond the noise"
                                                : "within the noise");
        out += "\n";
    }
    out +=
        "  * random: the exact baseline (expected evaluations, not simulated); evaluations are counted\n"
        "    until the first within 10% / within 5% / at the optimum; ms/run: time the strategy took\n";
    const bool versus = std::any_of(table.spaces.begin(), table.spaces.end(), [](const TuneEvalSpace& s) {
        return std::any_of(s.rows.begin(), s.rows.end(), [](const TuneEvalRow& r) { return !r.versus.empty(); });
    });
    if (versus)
        out +=
            "  median ratio: evaluations to within 10% with the prior over those without, and its 95%\n"
            "    bootstrap interval over the seeds: below 1, the prior helped\n";
    if (table.stop_chance > 0)
        out += format("  the stopping rule was on (chance %g, as memwall tune --stop-chance): ", table.stop_chance) +
               "a run ends where it\n"
               "    stops it, and one stopped before getting within 10% never does; stopped by the rule: at\n"
               "    how many evaluations (how many runs it stopped; the others ran to the optimum or their end)\n";
    const bool prior_asked = std::any_of(table.spaces.begin(), table.spaces.end(), [](const TuneEvalSpace& s) {
        return std::any_of(s.rows.begin(), s.rows.end(), [](const TuneEvalRow& r) { return uses_prior(r.strategy); });
    });
    if (prior_asked)
        out +=
            "  guided is also given, before measuring, the prior: device-independent counters of every\n"
            "    configuration (instruction counts, memory requests: what the code does, not how fast) and\n"
            "    other devices' recordings given with --prior; where it has neither it searches as\n"
            "    guided-online, which is never given a prior, does\n";
    out += "mean score over " + std::to_string(table.spaces.size()) + " spaces:";
    for (const auto& [name, score] : table.mean_scores) out += format(" %s %.3f", name.c_str(), score);
    out += "\n";
    return out;
}

}  // namespace memwall
