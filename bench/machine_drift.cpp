// How this machine's speed wanders, and whether its cases wander together: the cases of a suite
// (default suites/attention-cpu.json) are measured round-robin, one short repetition each, for
// a while (default 60 s). For each case, and for each case divided by the first one measured
// just before it, it prints the Allan deviation of the log repetition medians at averaging
// times from one round to a sixth of the run:
//   - falling as 1/sqrt(tau): white noise, which more repetitions average away and which the
//     compare rule's bootstrap over repetitions sees;
//   - flat or rising: the machine's speed wanders over that time, so two runs that far apart
//     differ by about that much whatever each run's own repetitions say;
//   - the ratio's deviation far below the case's: the cases share the wander, so a reference
//     measured beside each repetition could divide it out.
// Usage: bench_machine_drift [--seconds S] [--suite FILE]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/machine.hpp"
#include "harness/measure.hpp"
#include "harness/suite.hpp"
#include "harness/sweep.hpp"
#include "kernels/register_builtin.hpp"
#include "results/report.hpp"
#include "stats/bootstrap.hpp"

namespace {

using namespace memwall;

// sqrt(mean((block mean i+1 - block mean i)^2) / 2) over consecutive blocks of `k` values.
double allan_deviation(const std::vector<double>& x, std::size_t k) {
    std::vector<double> means;
    for (std::size_t i = 0; i + k <= x.size(); i += k) {
        double s = 0;
        for (std::size_t j = i; j < i + k; ++j) s += x[j];
        means.push_back(s / static_cast<double>(k));
    }
    if (means.size() < 3) return std::nan("");
    double sum = 0;
    for (std::size_t i = 1; i < means.size(); ++i) sum += (means[i] - means[i - 1]) * (means[i] - means[i - 1]);
    return std::sqrt(sum / (2.0 * static_cast<double>(means.size() - 1)));
}

}  // namespace

int main(int argc, char** argv) {
    double seconds = 60;
    std::string suite_path = std::string(MEMWALL_SOURCE_DIR) + "/suites/attention-cpu.json";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) {
            seconds = std::atof(argv[++i]);
        } else if (!std::strcmp(argv[i], "--suite") && i + 1 < argc) {
            suite_path = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--seconds S] [--suite FILE]\n", argv[0]);
            return 2;
        }
    }
    if (!(seconds >= 5)) {
        std::fprintf(stderr, "--seconds must be >= 5\n");
        return 2;
    }
    const Suite suite = load_suite(suite_path);
    Catalogue cat;
    register_builtin_kernels(cat);
    const std::vector<PlannedCase> cases = expand_sweep(suite.sweep, cat);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    std::vector<std::unique_ptr<Workload>> workloads;
    for (const auto& c : cases) workloads.push_back(c.family->make_workload(c.problem, suite.sweep.seed));
    MeasureOptions opt;
    opt.sampler = suite.sweep.sampler;

    // log median of each repetition, per case, round by round.
    std::vector<std::vector<double>> logs(cases.size());
    const auto t0 = std::chrono::steady_clock::now();
    double elapsed = 0;
    while (elapsed < seconds) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            CaseRecord rec = measure_case(cases[i], *workloads[i], mh, opt);
            if (rec.status != CaseStatus::ok) {
                std::fprintf(stderr, "%s: %s\n", cases[i].name().c_str(), rec.message.c_str());
                return 1;
            }
            logs[i].push_back(std::log(pooled_median(rec.samples)));
        }
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    const std::size_t rounds = logs.front().size();
    const double round_seconds = elapsed / static_cast<double>(rounds);
    std::printf("%s: %zu cases measured round-robin for %.0f s: %zu rounds of %.2f s\n%s\n", suite.name.c_str(),
                cases.size(), elapsed, rounds, round_seconds, cpu_description().c_str());

    std::vector<std::size_t> ks;
    for (std::size_t k = 1; k <= rounds / 6; k *= 2) ks.push_back(k);
    std::printf("\nAllan deviation of log repetition medians at averaging time tau (%%):\n%-44s", "case");
    for (std::size_t k : ks) std::printf(" %7.1fs", static_cast<double>(k) * round_seconds);
    std::printf("\n");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CaseKey key = key_of(cases[i]);
        const std::string name =
            case_label(key) + (key.problem.find("\"causal\":1") != std::string::npos ? " causal" : "");
        std::printf("%-44s", name.c_str());
        for (std::size_t k : ks) std::printf(" %8.2f", 100 * allan_deviation(logs[i], k));
        std::printf("\n");
        if (i == 0) continue;
        std::vector<double> ratio(rounds);
        for (std::size_t r = 0; r < rounds; ++r) ratio[r] = logs[i][r] - logs[0][r];
        std::printf("%-44s", ("  over " + case_label(key_of(cases[0]))).c_str());
        for (std::size_t k : ks) std::printf(" %8.2f", 100 * allan_deviation(ratio, k));
        std::printf("\n");
    }
    std::printf(
        "white noise falls by 1/sqrt(2) per column; a flat row is drift that runs that far apart do not share\n");
    return 0;
}
