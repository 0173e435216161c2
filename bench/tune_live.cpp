// Live tuning of one CPU variant on one problem, over the default space of its tunables.
//
// 1. Exhaustive, once: every configuration measured (median of its samples), the fastest three
//    confirmed (tuner/tune.hpp): the optimum.
// 2. Guided, live, for a few seeds, as `memwall tune` runs it by default: the model's counts of
//    every configuration as its prior, no budget, stopped by the stopping rule (then the best
//    confirmed): the share of the space it measured, and its best judged by its own measurement,
//    by the exhaustive measurement of the configuration it chose, and head to head: it and the
//    exhaustive optimum measured alternately, three times each (on a shared machine medians drift
//    between runs; alternating cancels slow drift).
// 3. Guided and guided-online replayed over the exhaustive record for 100 seeds (noise-free),
//    the same rule: the evaluations each needs to get within 5%, where the rule stops it, and how
//    often it stopped within 5%, beside random search's exact expectation.
// Every measurement is timed beside the variant's default configuration (its anchor), as memwall
// tune does on cpu, so the host's drift cancels out of the comparisons; --alone times each by itself.
// Usage: bench_tune_live [FAMILY VARIANT [axis=value ...]] [--live-seeds N] [--alone]
//   default: attention flash seq_q=2048 seq_k=2048 head_dim=64 causal=0 (issue 4, acceptance 3);
//   conv im2win layer=conv8 is issue 14's acceptance 4.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/machine.hpp"
#include "kernels/register_builtin.hpp"
#include "stats/statistics.hpp"
#include "tuner/live/live_objective.hpp"
#include "tuner/live/model_prior.hpp"
#include "tuner/random_baseline.hpp"
#include "tuner/replay.hpp"
#include "tuner/strategy.hpp"

namespace {

using namespace memwall;

constexpr double kStopChance = 0.05;  // memwall tune's default

// Evaluations until the best so far is within `target`, judged by the exhaustive record;
// infinity when never.
double evaluations_to(const Trace& t, const RecordedSpace& record, double target) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < t.entries.size(); ++i) {
        const Evaluation& e = record.results[t.entries[i].config];
        if (e.ok()) best = std::min(best, e.seconds);
        if (best <= target) return static_cast<double>(i + 1);
    }
    return std::numeric_limits<double>::infinity();
}

// "improvement unlikely (chance 3.1% of beating it by 1.0%)", or the other reason it stopped.
std::string stop_text(const Trace& t) {
    std::string out = t.stop_reason ? std::string(to_string(*t.stop_reason)) : "";
    if (!t.entries.empty() && !std::isnan(t.entries.back().improvement_chance)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (chance %.1f%% of beating it by %.1f%%)",
                      t.entries.back().improvement_chance * 100, t.noise * 100);
        out += buf;
    }
    return out;
}

// A quantile of sorted evaluation counts, "never" where it falls among the runs that never got
// there (infinite; interpolating them would print nan).
std::string quantile_text(const std::vector<double>& sorted, double q) {
    const double at = static_cast<double>(sorted.size() - 1) * q;
    if (!std::isfinite(sorted[static_cast<std::size_t>(std::ceil(at))])) return "never";
    return std::to_string(static_cast<long>(std::lround(quantile_sorted(sorted, q))));
}

// Median over `rounds` of a's median / b's median, measured alternately.
double head_to_head(LiveObjective& objective, std::size_t a, std::size_t b, int rounds) {
    std::vector<double> ta, tb;
    for (int r = 0; r < rounds; ++r) {
        ta.push_back(objective.evaluate(a).seconds);
        tb.push_back(objective.evaluate(b).seconds);
    }
    std::sort(ta.begin(), ta.end());
    std::sort(tb.begin(), tb.end());
    return quantile_sorted(ta, 0.5) / quantile_sorted(tb, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    int live_seeds = 3;
    for (auto it = args.begin(); it != args.end(); ++it)
        if (*it == "--live-seeds" && it + 1 != args.end()) {
            live_seeds = std::atoi((it + 1)->c_str());
            args.erase(it, it + 2);
            break;
        }
    const auto alone_flag = std::find(args.begin(), args.end(), "--alone");
    const bool alone = alone_flag != args.end();
    if (alone) args.erase(alone_flag);
    if (args.size() == 1) {
        std::fprintf(stderr, "usage: bench_tune_live [FAMILY VARIANT [axis=value ...]] [--live-seeds N] [--alone]\n");
        return 2;
    }
    if (args.empty()) args = {"attention", "flash", "seq_q=2048", "seq_k=2048", "head_dim=64", "causal=0"};
    const std::string family = args[0], variant = args[1];
    const std::vector<std::string> axes(args.begin() + 2, args.end());

    Catalogue cat;
    register_builtin_kernels(cat);
    const LiveTarget target = live_target(cat, family, variant, Backend::cpu, axes);
    const std::size_t n = target.space.size();
    std::printf("%s/%s on cpu (%s), %s: %zu configurations\n", family.c_str(), variant.c_str(), cpu_model().c_str(),
                target.problem.label().c_str(), n);
    std::fflush(stdout);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    LiveOptions options;
    if (!alone) options.measure.anchor = target.anchor;
    LiveObjective objective(target, mh, options);
    if (const auto a = objective.anchor_seconds())
        std::printf("every configuration timed beside the anchor %s (%.2f ms alone)\n", target.anchor.label().c_str(),
                    *a * 1e3);
    else
        std::printf("every configuration timed alone\n");

    // 1. Exhaustive.
    // A live count of the measurements on a terminal; in a log it would only pile up.
    const bool terminal = isatty(STDERR_FILENO);
    TuneHooks progress;
    if (terminal)
        progress.evaluated = [](const Trace& t) {
            std::fprintf(stderr, "\rmeasured %zu", t.entries.size());
            std::fflush(stderr);
        };
    const auto clear_progress = [terminal] {
        if (terminal) std::fputs("\r\033[K", stderr);
    };
    auto exhaustive = make_strategy("exhaustive", target.space, 1);
    const Trace full = tune(objective, *exhaustive, {}, progress);
    clear_progress();
    RecordedSpace record;
    record.origin = "exhaustive";
    record.space = target.space;
    record.results.resize(n);
    double cost = 0;
    for (const TraceEntry& e : full.entries) {
        record.results[e.config] = e.evaluation;
        cost += e.evaluation.cost_seconds;
    }
    const double optimum = record.optimum_seconds();
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t i = 0; i < n; ++i)
        if (record.results[i].ok()) ranked.emplace_back(record.results[i].seconds, i);
    std::sort(ranked.begin(), ranked.end());
    std::printf("\nexhaustive: %zu configurations (%zu ok) and %zu confirmation measurements in %.0f s; fastest:\n", n,
                ranked.size(), full.confirmations, cost);
    for (std::size_t k = 0; k < std::min<std::size_t>(8, ranked.size()); ++k)
        std::printf("  %-16s %8.2f ms  %+5.1f%%\n", target.space.label(ranked[k].second).c_str(), ranked[k].first * 1e3,
                    (ranked[k].first / optimum - 1) * 100);
    std::printf("  slowest ok: %.2f ms (%.2fx the optimum)\n", ranked.back().first * 1e3,
                ranked.back().first / optimum);
    std::fflush(stdout);

    // 2. Guided, live: the model's counts as its prior, the stopping rule on, no budget.
    const std::size_t opt_config = ranked.front().second;
    Prior prior;
    prior.counters = model_counter_prior(target, mh);
    prior.start = target.anchor_id;
    const Budget rule{0, 0, 0, kStopChance};
    std::printf(
        "\nguided, live, model prior (%zu counters), stopping rule (chance < %.2f), no budget (vs optimum: its "
        "own median; the exhaustive median of its choice; head to head):\n  %-4s %-16s %12s %12s %12s %12s "
        "%12s %10s %18s\n",
        prior.counters.names.size(), kStopChance, "seed", "best", "its median", "own", "exhaustive", "head2head",
        "within 5% at", "space", "measurements");
    for (int seed = 1; seed <= live_seeds; ++seed) {
        auto guided = make_strategy("guided", target.space, static_cast<std::uint64_t>(seed), &prior);
        const Trace t = tune(objective, *guided, rule, progress);
        clear_progress();
        const auto best = t.best();
        if (!best) {
            std::printf("  %-4d no configuration succeeded\n", seed);
            continue;
        }
        const std::size_t c = t.entries[*best].config;
        const double own = t.entries[*best].evaluation.seconds;
        const double at = evaluations_to(t, record, 1.05 * optimum);
        const double h2h = c == opt_config ? 1.0 : head_to_head(objective, c, opt_config, 3);
        std::printf("  %-4d %-16s %9.2f ms %+11.1f%% %+11.1f%% %+11.1f%% %12s %9.0f%% %6zu (%zu+%zu)  stopped by %s\n",
                    seed, target.space.label(c).c_str(), own * 1e3, (own / optimum - 1) * 100,
                    (record.results[c].seconds / optimum - 1) * 100, (h2h - 1) * 100,
                    std::isfinite(at) ? std::to_string(static_cast<int>(at)).c_str() : "never",
                    100.0 * static_cast<double>(t.entries.size()) / static_cast<double>(n), t.measurements(),
                    t.entries.size(), t.confirmations, stop_text(t).c_str());
        std::fflush(stdout);
    }

    // 3. Replayed over the record (noise-free), the same rule: where it stops, and how close.
    constexpr int seeds = 100;
    ReplayObjective replay(record);
    const RandomBaseline random(record);
    std::printf(
        "\nreplayed over the exhaustive record, %d seeds, stopping rule on; random search expects %.1f "
        "evaluations to within 5%%:\n  %-14s %24s %22s %20s\n",
        seeds, random.expected_draws_to(1.05 * optimum), "strategy", "within 5% at (IQR)", "stopped at (IQR)",
        "within 5% at stop");
    for (const char* name : {"guided", "guided-online"}) {
        std::vector<double> needed, stopped;
        int close = 0;
        for (int seed = 1; seed <= seeds; ++seed) {
            auto strategy = make_strategy(name, target.space, static_cast<std::uint64_t>(seed), &prior);
            const Trace t = tune(replay, *strategy, rule);
            needed.push_back(evaluations_to(t, record, 1.05 * optimum));
            stopped.push_back(static_cast<double>(t.entries.size()));
            close += t.best() && record.results[t.entries[*t.best()].config].seconds <= 1.05 * optimum;
        }
        std::sort(needed.begin(), needed.end());
        std::sort(stopped.begin(), stopped.end());
        std::printf("  %-14s %8s (%4s-%4s)      %8.0f (%4.0f-%4.0f) %17d%%\n", name, quantile_text(needed, 0.5).c_str(),
                    quantile_text(needed, 0.25).c_str(), quantile_text(needed, 0.75).c_str(),
                    quantile_sorted(stopped, 0.5), quantile_sorted(stopped, 0.25), quantile_sorted(stopped, 0.75),
                    close * 100 / seeds);
    }
    return 0;
}
