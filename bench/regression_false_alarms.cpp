// How often the verdict rule of `memwall compare` raises a false alarm on this machine, how
// often it catches a real slowdown, and what the noise it faces is made of. Runs of the CPU
// attention suite (suites/attention-cpu.json) are measured in-process the way `memwall ci`
// measures them (measure_case per repetition, repetitions interleaved across the run, inputs
// rebuilt when the problem changes), rotating between the unchanged kernels and kernels slowed
// down by 5% and 10%. Then, with the rule of compare_runs:
//   A/A: every pair of unchanged runs is compared (runs minutes apart, so the drift between
//        runs is in the figure): any SLOWER is a false alarm, any FASTER a false verdict;
//   A/B: every unchanged run against every slowed run: the share of cases found SLOWER.
// The slowdown is real work, never an edited number: the slowed runs measure the same cases on
// inputs with 5% or 10% more heads (21 or 22 instead of the suite's 20), which the kernels
// compute in the same passes; the cases keep their keys, so they match.
//
// It also prints the noise of the unchanged runs per case: the spread of the repetition medians
// within a run, and the spread of the run medians between runs, which the rule has to clear.
//
// Usage: bench_regression_false_alarms [--rounds N] [--suite FILE] [--repetitions R]
//        (default 10 rounds; R overrides the suite's repetitions, to see what a machine needs)
#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "harness/catalogue.hpp"
#include "harness/machine.hpp"
#include "harness/measure.hpp"
#include "harness/suite.hpp"
#include "harness/sweep.hpp"
#include "results/compare.hpp"
#include "results/report.hpp"

namespace {

using namespace memwall;

// The problem a case is measured on: its own, or for an injected slowdown the same problem with
// `fraction` more heads (the kernels take the problem from the workload, so they compute the
// extra heads in the same passes). The case's key, and hence the matching, is unchanged.
Params problem_for(const PlannedCase& c, double fraction) {
    Params problem = c.problem;
    if (fraction == 0) return problem;
    const double heads = static_cast<double>(problem.integer("heads")) * (1 + fraction);
    if (std::abs(heads - std::round(heads)) > 1e-9)
        throw std::invalid_argument("a slowdown must add a whole number of heads to the problem");
    problem.set("heads", static_cast<std::int64_t>(std::round(heads)));
    return problem;
}

// As the runner's: one workload, rebuilt when the problem changes (with interleaving, nearly
// every repetition gets fresh inputs, as in `memwall ci`).
class WorkloadSlot {
public:
    const Workload& get(const PlannedCase& c, const Params& problem, std::uint64_t seed) {
        std::string key = c.family->name + problem.canonical();
        if (key != key_) {
            current_.reset();
            current_ = c.family->make_workload(problem, seed);
            key_ = std::move(key);
        }
        return *current_;
    }

private:
    std::string key_;
    std::unique_ptr<Workload> current_;
};

// One run: every (case, repetition) in a shuffled order, as Google Benchmark's random
// interleaving runs a suite.
LoadedRun measure_run(const std::vector<PlannedCase>& cases, double slowdown, const Suite& suite,
                      const MemoryHierarchy& mh, WorkloadSlot& workloads, std::int64_t id, std::mt19937_64& rng) {
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
    MeasureOptions opt;
    opt.sampler = suite.sweep.sampler;
    for (auto [i, r] : units) {
        const PlannedCase& c = cases[i];
        const Params problem = problem_for(c, slowdown);
        CaseRecord rec = measure_case(c, workloads.get(c, problem, suite.sweep.seed), mh, opt);
        if (rec.status != CaseStatus::ok) {
            std::fprintf(stderr, "%s: %s\n", c.name().c_str(), rec.message.c_str());
            std::exit(1);
        }
        CaseRecord& into = run.cases[i];
        into.key = rec.key;
        into.samples.push_back(std::move(rec.samples.front()));
    }
    for (auto& c : run.cases) {
        std::vector<double> all;
        for (const auto& rep : c.samples) all.insert(all.end(), rep.begin(), rep.end());
        c.summary = summarize(all);
    }
    return run;
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

// Process CPU seconds (all threads) so far.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
    return sec(u.ru_utime) + sec(u.ru_stime);
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

}  // namespace

int main(int argc, char** argv) {
    int rounds = 10, repetitions = 0;
    std::string suite_path = std::string(MEMWALL_SOURCE_DIR) + "/suites/attention-cpu.json";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--suite") && i + 1 < argc) {
            suite_path = argv[++i];
        } else if (!std::strcmp(argv[i], "--repetitions") && i + 1 < argc) {
            repetitions = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--rounds N] [--suite FILE] [--repetitions R]\n", argv[0]);
            return 2;
        }
    }
    if (rounds < 2 || repetitions < 0) {
        std::fprintf(stderr, "--rounds must be >= 2 and --repetitions >= 1\n");
        return 2;
    }
    Suite suite = load_suite(suite_path);
    if (repetitions) suite.repetitions = repetitions;
    Catalogue cat;
    register_builtin_kernels(cat);
    const std::vector<PlannedCase> cases = expand_sweep(suite.sweep, cat);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    std::printf(
        "suite %s: %zu cases x %d repetitions per run; %d rounds of 2 unchanged runs and one run each slowed "
        "by 5%% and 10%%\n%s, load average %s at the start\n",
        suite.name.c_str(), cases.size(), suite.repetitions, rounds, cpu_description().c_str(), load_average().c_str());

    // Each round measures A, slowed 5%, A, slowed 10%, rotated so no kind always runs first.
    WorkloadSlot workloads;
    std::mt19937_64 rng(1);
    std::vector<LoadedRun> same, slow5, slow10;
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    std::int64_t id = 0;
    for (int r = 0; r < rounds; ++r) {
        std::vector<int> kinds{0, 5, 0, 10};
        std::rotate(kinds.begin(), kinds.begin() + r % 4, kinds.end());
        for (int k : kinds) {
            LoadedRun run = measure_run(cases, k / 100.0, suite, mh, workloads, ++id, rng);
            (k == 0 ? same : k == 5 ? slow5 : slow10).push_back(std::move(run));
        }
        std::fprintf(stderr, "\rround %d/%d measured", r + 1, rounds);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The kernels' threads spin rather than sleep while they wait for each other, so CPU time
    // short of wall time x threads is time the machine gave to someone else.
    const double cpu_share = (cpu_seconds() - cpu0) / (seconds * omp_get_max_threads());
    std::fprintf(stderr, "\n");

    std::printf(
        "%zu runs in %.1f minutes, load average %s at the end; the measuring threads had their cores %.0f%% "
        "of the time\n",
        same.size() + slow5.size() + slow10.size(), seconds / 60, load_average().c_str(), cpu_share * 100);
    print_noise(same, cases);

    std::printf("\nrule: threshold %g%%, alpha %g (compare_runs, as `memwall compare` and `memwall ci`)\n",
                suite.compare.threshold * 100, suite.compare.alpha);
    std::printf("%-30s %6s %6s %8s %8s %8s %8s %14s %13s\n", "experiment", "pairs", "cases", "SLOWER", "FASTER",
                "SAME", "UNSURE", "pairs w/ SLOWER", "median ratio");
    auto row = [](const std::string& name, Tally& t) {
        std::printf("%-30s %6zu %6zu %7.1f%% %7.1f%% %7.1f%% %7.1f%% %14.1f%% %13.3f\n", name.c_str(), t.pairs,
                    t.case_total(), t.share(Verdict::slower), t.share(Verdict::faster), t.share(Verdict::same),
                    t.share(Verdict::unsure),
                    100.0 * static_cast<double>(t.pairs_with_slower) / static_cast<double>(t.pairs), t.median_ratio());
    };
    Tally aa, ab5, ab10;
    for (std::size_t i = 0; i < same.size(); ++i)
        for (std::size_t j = i + 1; j < same.size(); ++j) aa.add(compare_runs(same[i], same[j], suite.compare));
    for (const auto& base : same) {
        for (const auto& s : slow5) ab5.add(compare_runs(base, s, suite.compare));
        for (const auto& s : slow10) ab10.add(compare_runs(base, s, suite.compare));
    }
    row("A/A (unchanged)", aa);
    row("A/B slowed by 5%", ab5);
    row("A/B slowed by 10%", ab10);
    std::printf(
        "false alarms (A/A cases SLOWER) %.2f%% of %zu (target <= 1%%), false verdicts (SLOWER or FASTER) %.2f%%;\n"
        "detection (A/B cases SLOWER) %.1f%% of %zu at 5%%, %.1f%% of %zu at 10%% (target >= 95%% at 10%%)\n",
        aa.share(Verdict::slower), aa.case_total(), aa.share(Verdict::slower) + aa.share(Verdict::faster),
        ab5.share(Verdict::slower), ab5.case_total(), ab10.share(Verdict::slower), ab10.case_total());
    std::printf(
        "the median ratio of each row is the change measured (injected: 1.05 and 1.10); comparisons share runs, so "
        "they are not independent\n");
    return 0;
}
