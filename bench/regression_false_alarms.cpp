// How often the verdict rule of `memwall compare` raises a false alarm on this machine, how
// often it catches a real slowdown, and what noise it faces, on the CPU attention suite
// (suites/attention-cpu.json), in the two ways memwall compares builds:
//   paired (default), exactly as `memwall ci --baseline-build` does: two `memwall
//        measure-worker` processes timed in pairs (measure_paired: samples alternating,
//        pairs of repetitions compared pair by pair). Each round measures an A/A pair, a pair
//        slowed by 5%, another A/A pair and a pair slowed by 10% (rotated);
//   --stored, as `memwall ci --baseline TAG` does against a stored run: whole runs measured one
//        after the other (measure_case per repetition, repetitions interleaved), rotating between
//        unchanged and slowed kernels; every pair of unchanged runs is compared (A/A) and every
//        unchanged run with every slowed one (A/B). The drift between runs is in the figures.
// In A/A any SLOWER is a false alarm (any FASTER a false verdict); in A/B the share of cases
// found SLOWER is the detection rate.
// The slowdown is real work, never an edited number: the slowed arm measures the same cases on
// inputs with 5% or 10% more heads (21 or 22 instead of the suite's 20; the worker's test-only
// --scale heads=1.05), which the kernels compute in the same passes; the cases keep their keys.
//
// Usage: bench_regression_false_alarms [--rounds N] [--suite FILE] [--repetitions R] [--stored]
//        [--verbose]   (default 10 rounds; R overrides the suite's repetitions; --verbose prints
//        every comparison)
#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ci/measure_paired.hpp"
#include "ci/measure_worker.hpp"
#include "core/catalogue.hpp"
#include "core/machine.hpp"
#include "harness/measure.hpp"
#include "harness/suite.hpp"
#include "harness/sweep.hpp"
#include "kernels/register_builtin.hpp"
#include "results/compare.hpp"
#include "results/report.hpp"

namespace {

using namespace memwall;

// An injected slowdown: the same problem with `fraction` more heads (the kernels compute them in
// the same passes); the case's key, and hence the matching, is unchanged.
ProblemScale slowdown_by(double fraction) {
    return fraction == 0 ? ProblemScale{} : ProblemScale{"heads", 1 + fraction};
}

// One run: every (case, repetition) in a shuffled order, as Google Benchmark's random
// interleaving runs a suite.
LoadedRun measure_run(const std::vector<PlannedCase>& cases, double slowdown, const Suite& suite,
                      const MemoryHierarchy& mh, std::int64_t id, std::mt19937_64& rng) {
    std::vector<std::pair<std::size_t, int>> units;
    for (std::size_t i = 0; i < cases.size(); ++i)
        for (int r = 0; r < suite.repetitions; ++r) units.emplace_back(i, r);
    std::shuffle(units.begin(), units.end(), rng);
    LoadedRun run;
    run.info.id = id;
    run.info.status = RunStatus::complete;
    run.info.device = "this machine";
    run.info.backend = "cpu";
    run.database = "(in memory)";
    run.cases.resize(cases.size());
    // As measure_case, with the runner's workload policy (rebuilt when the problem changes).
    MeasureOptions opt;
    opt.sampler = suite.sweep.sampler;
    LocalArm arm(cases, suite.sweep.seed, mh, opt, slowdown_by(slowdown));
    for (auto [i, r] : units) {
        CaseRecord rec = arm.prepare(i);
        if (rec.status != CaseStatus::ok) {
            std::fprintf(stderr, "%s: %s\n", cases[i].name().c_str(), rec.message.c_str());
            std::exit(1);
        }
        CaseRecord& into = run.cases[i];
        into.key = rec.key;
        into.samples.push_back(take_samples([&] { return arm.sample(); }, suite.sweep.sampler).seconds);
    }
    for (auto& c : run.cases) c.summary = summarize(pooled_samples(c.samples));
    return run;
}

// Two arms paired exactly as `memwall ci --baseline-build` measures two builds: two
// `memwall measure-worker` processes (the second with more work), as a pair of runs the second
// of which is tagged as measured with the first.
std::pair<LoadedRun, LoadedRun> measure_pair(const std::string& suite_path, const Suite& suite, double slowdown,
                                             std::int64_t& id) {
    std::vector<std::string> argv{MEMWALL_BINARY, "measure-worker", "--suite", suite_path};
    WorkerArm base(start_worker(argv, "the baseline worker"), "the baseline");
    if (slowdown > 0) {
        argv.push_back("--scale");
        argv.push_back("heads=" + std::to_string(1 + slowdown));
    }
    WorkerArm cand(start_worker(argv, "the candidate worker"), "the candidate");
    const PairedPlan plan{base.worker_cases().size(), suite.repetitions, suite.interleave, suite.sweep.sampler,
                          static_cast<std::uint64_t>(id + 1)};
    PairedRuns t = measure_paired(base, cand, plan);
    std::pair<LoadedRun, LoadedRun> runs;
    for (auto [run, records] : {std::pair{&runs.first, &t.base}, std::pair{&runs.second, &t.candidate}}) {
        run->info.id = ++id;
        run->info.status = RunStatus::complete;
        run->info.device = "this machine";
        run->info.backend = "cpu";
        run->database = "(in memory)";
        for (CaseRecord& c : *records) {
            if (c.status != CaseStatus::ok) {
                std::fprintf(stderr, "%s: %s\n", case_label(c.key).c_str(), c.message.c_str());
                std::exit(1);
            }
            run->cases.push_back(std::move(c));
        }
    }
    runs.second.info.tags["paired_with"] = std::to_string(runs.first.info.id);
    return runs;
}

struct Tally {
    std::size_t pairs = 0, pairs_with_slower = 0;
    std::map<Verdict, std::size_t> cases;
    std::vector<double> ratios;

    void add(const Comparison& c) {
        ++pairs;
        pairs_with_slower += c.count(Verdict::slower) > 0;
        for (const auto& x : c.cases) {
            ++cases[x.verdict];
            if (x.ratio > 0) ratios.push_back(x.ratio);
        }
    }
    std::size_t case_total() const {
        std::size_t n = 0;
        for (const auto& [v, k] : cases) n += k;
        return n;
    }
    double share(Verdict v) const {
        auto it = cases.find(v);
        return it == cases.end() ? 0.0 : 100.0 * static_cast<double>(it->second) / static_cast<double>(case_total());
    }
    double median_ratio() {
        std::sort(ratios.begin(), ratios.end());
        return ratios.empty() ? 0 : ratios[ratios.size() / 2];
    }
};

// CPU seconds so far of this process (all threads) and of its ended workers.
double cpu_seconds() {
    auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
    double total = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage u{};
        getrusage(who, &u);
        total += sec(u.ru_utime) + sec(u.ru_stime);
    }
    return total;
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

double sd(const std::vector<double>& v) {
    if (v.size() < 2) return 0;
    double m = 0;
    for (double x : v) m += x;
    m /= static_cast<double>(v.size());
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

double log_median(const std::vector<double>& v) { return std::log(pooled_median({v})); }

// Per case of the unchanged runs: the median spread (sd of log) of the repetition medians within
// a run, and the spread of the run medians between runs.
void print_noise(const std::vector<LoadedRun>& runs, const std::vector<PlannedCase>& cases) {
    std::printf("\nnoise of the unchanged runs (sd of log times):\n%9s %11s %13s  %s\n", "median", "within run",
                "between runs", "case");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        std::vector<double> within, between;
        for (const LoadedRun& r : runs) {
            std::vector<double> reps;
            for (const auto& rep : r.cases[i].samples) reps.push_back(log_median(rep));
            within.push_back(sd(reps));
            const double m = std::log(pooled_median(r.cases[i].samples));
            between.push_back(m);
        }
        std::sort(within.begin(), within.end());
        const CaseKey k = key_of(cases[i]);
        const std::string name = case_label(k) + " " + params_label(k.problem);
        std::sort(between.begin(), between.end());
        std::printf("%9s %10.2f%% %12.2f%%  %s\n", format_duration(std::exp(between[between.size() / 2])).c_str(),
                    100 * within[within.size() / 2], 100 * sd(between), name.c_str());
    }
}

// Per case, over the A/A pairs measured together: the spread of each side's repetition medians
// (what an unpaired comparison faces) and of the log ratios of the pairs (what the paired rule
// faces), medians over the pairs.
void print_pair_noise(const std::vector<std::pair<LoadedRun, LoadedRun>>& pairs,
                      const std::vector<PlannedCase>& cases) {
    std::printf("\nnoise of the A/A pairs (sd of log times, median over pairs):\n%9s %11s %13s  %s\n", "median",
                "each side", "pair ratios", "case");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        std::vector<double> side, ratio, medians;
        for (const auto& [a, b] : pairs) {
            std::vector<double> la, lr;
            const auto& ra = a.cases[i].samples;
            const auto& rb = b.cases[i].samples;
            for (std::size_t r = 0; r < ra.size() && r < rb.size(); ++r) {
                la.push_back(log_median(ra[r]));
                lr.push_back(log_median(rb[r]) - log_median(ra[r]));
            }
            side.push_back(sd(la));
            ratio.push_back(sd(lr));
            medians.push_back(pooled_median(ra));
        }
        for (auto* v : {&side, &ratio, &medians}) std::sort(v->begin(), v->end());
        const CaseKey k = key_of(cases[i]);
        std::printf("%9s %10.2f%% %12.2f%%  %s %s\n", format_duration(medians[medians.size() / 2]).c_str(),
                    100 * side[side.size() / 2], 100 * ratio[ratio.size() / 2], case_label(k).c_str(),
                    params_label(k.problem).c_str());
    }
}

// The exact (Clopper-Pearson) 95% interval of a rate of k in n, by bisection on the binomial tail.
Interval rate_interval(std::size_t k, std::size_t n) {
    auto tail_at_least = [&](double p, std::size_t from) {  // P(X >= from), X ~ Bin(n, p)
        const auto nd = static_cast<double>(n);
        double sum = 0;
        for (std::size_t x = from; x <= n; ++x) {
            const auto xd = static_cast<double>(x);
            sum += std::exp(std::lgamma(nd + 1) - std::lgamma(xd + 1) - std::lgamma(nd - xd + 1) + xd * std::log(p) +
                            (nd - xd) * std::log1p(-p));
        }
        return sum;
    };
    auto solve = [](auto f, double target) {  // f increasing in p: the p where it reaches target
        double lo = 0, hi = 1;
        for (int it = 0; it < 60; ++it) {
            const double mid = (lo + hi) / 2;
            (f(mid) < target ? lo : hi) = mid;
        }
        return (lo + hi) / 2;
    };
    const double lower = k == 0 ? 0.0 : solve([&](double p) { return tail_at_least(p, k); }, 0.025);
    const double upper = k == n ? 1.0 : solve([&](double p) { return tail_at_least(p, k + 1); }, 0.975);
    return {lower, upper};
}

void print_comparison(int slowdown, const Comparison& cmp) {
    for (const auto& x : cmp.cases)
        std::fprintf(stderr, "  %2d%% %-7s %s [%s, %s] p %s  %s %s\n", slowdown,
                     std::string(to_string(x.verdict)).c_str(), format_change(x.ratio).c_str(),
                     format_change(x.ci.lo).c_str(), format_change(x.ci.hi).c_str(), format_p_value(x.p_value).c_str(),
                     case_label(x.key).c_str(), params_label(x.key.problem).c_str());
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 10, repetitions = 0;
    bool stored = false, verbose = false;
    std::string suite_path = std::string(MEMWALL_SOURCE_DIR) + "/suites/attention-cpu.json";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--suite") && i + 1 < argc) {
            suite_path = argv[++i];
        } else if (!std::strcmp(argv[i], "--repetitions") && i + 1 < argc) {
            repetitions = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--stored")) {
            stored = true;
        } else if (!std::strcmp(argv[i], "--verbose")) {
            verbose = true;
        } else {
            std::fprintf(stderr, "usage: %s [--rounds N] [--suite FILE] [--repetitions R] [--stored] [--verbose]\n",
                         argv[0]);
            return 2;
        }
    }
    if (rounds < 1 || repetitions < 0 || (stored && rounds < 2)) {
        std::fprintf(stderr, "--rounds must be >= 1 (2 with --stored) and --repetitions >= 1\n");
        return 2;
    }
    Suite suite = load_suite(suite_path);
    if (repetitions) suite.repetitions = repetitions;
    Catalogue cat;
    register_builtin_kernels(cat);
    const std::vector<PlannedCase> cases = expand_sweep(suite.sweep, cat);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    std::printf("suite %s: %zu cases x %d repetitions per run; %d rounds of %s\n%s, load average %s at the start\n",
                suite.name.c_str(), cases.size(), suite.repetitions, rounds,
                stored ? "runs measured one after the other (2 unchanged, one slowed by 5% and one by 10%), as "
                         "against a stored baseline"
                       : "pairs of runs measured together (2 A/A, one slowed by 5% and one by 10%), as "
                         "`memwall ci --baseline-build`",
                cpu_description().c_str(), load_average().c_str());

    // Each round measures A, slowed 5%, A, slowed 10%, rotated so no kind always runs first.
    std::mt19937_64 rng(1);
    std::vector<LoadedRun> same, slow5, slow10;
    std::vector<std::pair<LoadedRun, LoadedRun>> same_pairs;
    Tally aa, ab5, ab10;
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    std::int64_t id = 0;
    for (int r = 0; r < rounds; ++r) {
        std::vector<int> kinds{0, 5, 0, 10};
        std::rotate(kinds.begin(), kinds.begin() + r % 4, kinds.end());
        for (int k : kinds) {
            if (stored) {
                LoadedRun run = measure_run(cases, k / 100.0, suite, mh, ++id, rng);
                (k == 0 ? same : k == 5 ? slow5 : slow10).push_back(std::move(run));
                continue;
            }
            auto pair = measure_pair(suite_path, suite, k / 100.0, id);
            const Comparison cmp = compare_runs(pair.first, pair.second, suite.compare);
            if (verbose) print_comparison(k, cmp);
            (k == 0 ? aa : k == 5 ? ab5 : ab10).add(cmp);
            if (k == 0) same_pairs.push_back(std::move(pair));
        }
        std::fprintf(stderr, "\rround %d/%d measured", r + 1, rounds);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // One side's threads are always computing (or, in this process, spinning between regions), so
    // CPU time short of wall time x threads is mostly time the machine gave to someone else.
    const double cpu_share = (cpu_seconds() - cpu0) / (seconds * omp_get_max_threads());
    std::fprintf(stderr, "\n");

    std::printf(
        "%d rounds in %.1f minutes, load average %s at the end; the measuring threads had their cores %.0f%% "
        "of the time\n",
        rounds, seconds / 60, load_average().c_str(), cpu_share * 100);
    if (stored) {
        print_noise(same, cases);
        for (std::size_t i = 0; i < same.size(); ++i)
            for (std::size_t j = i + 1; j < same.size(); ++j) aa.add(compare_runs(same[i], same[j], suite.compare));
        for (const auto& base : same) {
            for (const auto& s : slow5) ab5.add(compare_runs(base, s, suite.compare));
            for (const auto& s : slow10) ab10.add(compare_runs(base, s, suite.compare));
        }
    } else {
        print_pair_noise(same_pairs, cases);
    }

    std::printf("\nrule: threshold %g%%, alpha %g (compare_runs, as `memwall compare` and `memwall ci`)%s\n",
                suite.compare.threshold * 100, suite.compare.alpha, stored ? "" : ", paired");
    std::printf("%-30s %6s %6s %8s %8s %8s %8s %14s %13s\n", "experiment", "pairs", "cases", "SLOWER", "FASTER", "SAME",
                "UNSURE", "pairs w/ SLOWER", "median ratio");
    auto row = [](const std::string& name, Tally& t) {
        std::printf("%-30s %6zu %6zu %7.1f%% %7.1f%% %7.1f%% %7.1f%% %14.1f%% %13.3f\n", name.c_str(), t.pairs,
                    t.case_total(), t.share(Verdict::slower), t.share(Verdict::faster), t.share(Verdict::same),
                    t.share(Verdict::unsure),
                    100.0 * static_cast<double>(t.pairs_with_slower) / static_cast<double>(t.pairs), t.median_ratio());
    };
    row("A/A (unchanged)", aa);
    row("A/B slowed by 5%", ab5);
    row("A/B slowed by 10%", ab10);
    auto count = [](const Tally& t, Verdict v) {
        auto it = t.cases.find(v);
        return it == t.cases.end() ? std::size_t{0} : it->second;
    };
    const Interval fa = rate_interval(count(aa, Verdict::slower), aa.case_total());
    const Interval d10 = rate_interval(count(ab10, Verdict::slower), ab10.case_total());
    std::printf(
        "false alarms (A/A cases SLOWER) %.2f%% of %zu, 95%% CI [%.1f%%, %.1f%%] (target <= 1%%); false verdicts "
        "(SLOWER or FASTER) %.2f%%\n"
        "detection (A/B cases SLOWER) %.1f%% of %zu at 5%%; %.1f%% of %zu at 10%%, 95%% CI [%.1f%%, %.1f%%] (target "
        ">= 95%%)\n",
        aa.share(Verdict::slower), aa.case_total(), 100 * fa.lo, 100 * fa.hi,
        aa.share(Verdict::slower) + aa.share(Verdict::faster), ab5.share(Verdict::slower), ab5.case_total(),
        ab10.share(Verdict::slower), ab10.case_total(), 100 * d10.lo, 100 * d10.hi);
    std::printf("the median ratio of each row is the change measured (injected: 1.05 and 1.10)%s\n",
                stored ? "; comparisons share runs, so they are not independent" : "");
    return 0;
}
