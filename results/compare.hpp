// Run-versus-run comparison of timings, case by case, with a verdict that needs both a
// minimum effect and statistical significance, so a noisy machine rarely raises a false alarm.
//
// For each case matched by family, variant, backend, problem and configuration: the ratio of
// median times (candidate / base, above 1 is slower) with a bootstrap confidence interval
// that resamples repetitions and then samples within them, and a two-sided Mann–Whitney U test
// (on the repetitions' medians when both runs have enough repetitions, else on the samples).
// Runs measured together (paired: `memwall ci --baseline-build`, repetition r of one beside
// repetition r of the other) are compared pair by pair: the bootstrap draws the same
// repetitions for both sides and the test is the Wilcoxon signed-rank test on the log ratios of
// the repetitions' medians, so the machine's drift, which both sides of a pair shared, cancels.
// The verdict:
//   SLOWER / FASTER  the whole interval lies beyond the threshold band [1/(1+t), 1+t] and p < alpha;
//   SAME             the whole interval lies inside the band (a significant shift smaller than
//                    the threshold, e.g. drift between runs, is SAME);
//   UNSURE           too few samples, or the interval reaches into the band edge, or p >= alpha,
//                    or either side sampled on a busy host (CaseRecord::host_busy);
//   FAILED           the case passed in the base run but not in the candidate (a regression).
// The interval's confidence is 1 - alpha.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "results/store.hpp"
#include "stats/bootstrap.hpp"
#include "stats/statistics.hpp"

namespace memwall {

enum class Verdict { same, faster, slower, unsure, failed };
std::string_view to_string(Verdict v);  // "SAME", "FASTER", "SLOWER", "UNSURE", "FAILED"

struct CompareOptions {
    double threshold = 0.05;          // minimum effect, as a fraction of the base time
    double alpha = 0.05;              // significance level; the interval has confidence 1 - alpha
    std::size_t min_samples = 3;      // per side, below which a case is UNSURE
    std::size_t min_repetitions = 4;  // per side, from which the rank test uses repetition medians
    int resamples = 1000;             // bootstrap replicates
    std::uint64_t seed = 1;           // of the bootstrap (each case mixes in its own key)
    bool cross_device = false;        // compare runs of different devices, normalised by roofs

    // Throws UsageError naming the option (--threshold, --alpha) that is out of range.
    void validate() const;
};

// "+12.3%" for a ratio of 1.123; "-4.8%" for 0.952.
std::string format_change(double ratio);
// "0.0012", "<1e-06".
std::string format_p_value(double p);
// "95% CI" for alpha 0.05, "99.9% CI" for 0.001.
std::string confidence_label(double alpha);

struct Decision {
    Verdict verdict = Verdict::unsure;
    std::string reason;
};
// The rule above, for an interval of the ratio and a p-value.
Decision decide(Interval ratio_ci, double p, const CompareOptions& opt);

struct SideStats {
    CaseStatus status = CaseStatus::ok;
    std::string message;  // when not ok
    double median = 0;    // seconds
    std::size_t n = 0;    // samples
    std::size_t repetitions = 0;
    double percent_of_roof = 0;  // of the bounding roof; only filled when normalised
};

struct CaseComparison {
    CaseKey key;
    SideStats base, candidate;
    double ratio = 0;  // of medians (of the normalised values when normalised)
    Interval ci;       // of the ratio; {0, 0} when not computed
    double p_value = 1;
    std::string basis;  // the rank test's unit: "paired repetitions", "repetitions" or "samples"; "" none
    Verdict verdict = Verdict::unsure;
    std::string reason;
    std::vector<double> replicates;  // bootstrap ratios, for the geometric mean's interval
};

// Compares two sets of repetitions of one case (seconds, or any lower-is-better value): fills
// the side counts and medians, ratio, interval, p-value, basis and verdict; `seed` drives the
// bootstrap. `paired`: repetition r of both sides was measured together; used when both sides
// have the same number (at least opt.min_repetitions) of non-empty repetitions.
CaseComparison compare_timings(const Repetitions& base, const Repetitions& candidate, const CompareOptions& opt,
                               std::uint64_t seed, bool paired = false);

// A run as loaded for comparison.
struct LoadedRun {
    RunInfo info;
    std::string database;  // the file it came from
    Ceilings ceilings;
    std::vector<CaseRecord> cases;
};
// Throws InputError when the run does not exist.
LoadedRun load_run(const Store& store, std::int64_t run_id);

struct RunSide {
    std::int64_t id = 0;
    std::string database, started_at, host, device, backend, git_revision;
    std::map<std::string, std::string> tags;
};

struct GeometricMean {
    std::size_t cases = 0;  // over which it is taken (cases with an interval)
    double ratio = 1;
    Interval ci{1, 1};
};

struct Comparison {
    RunSide base, candidate;
    CompareOptions options;
    bool normalised = false;            // cross-device: ratios of 1 / (fraction of the bounding roof)
    bool paired = false;                // the runs were measured together, repetition beside repetition
    std::vector<CaseComparison> cases;  // in case-key order
    std::vector<CaseKey> only_in_base, only_in_candidate;
    GeometricMean geomean;
    std::vector<std::string> warnings;

    std::size_t count(Verdict v) const;
    // A case is SLOWER or FAILED: the exit status of compare and ci is then 1.
    bool regression() const;
};

// Matches the cases of the two runs and compares each. Runs from different devices or backends
// are refused (UsageError) unless options.cross_device; then each case's values are divided by
// its own run's roofline (time x attainable FLOP/s / FLOPs, the inverse of the fraction of the
// bounding roof reached), a warning says so, and when each run has one backend the backend is
// left out of the matching. The runs are paired when they come from one database and one
// carries the tag paired_with=<the other's id>.
Comparison compare_runs(const LoadedRun& base, const LoadedRun& candidate, const CompareOptions& options);

}  // namespace memwall
