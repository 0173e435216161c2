// Baseline comparison for the compare view and `memwall plot compare`: the shown cases of two
// runs judged by results/compare, so every ratio, interval, p-value and verdict is the one
// `memwall compare` prints for the same runs and options. The cases are compared in chunks on
// worker threads: the bootstrap costs ~0.2 ms a case, so a large run takes seconds, and a
// chunked comparison reports progress, stops early and never holds every case's resamples.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <QColor>
#include <QString>

#include "gui/core/case_data.hpp"
#include "results/compare.hpp"

namespace memwall::gui {

// One side of a comparison: a run and the cases of it to compare. The cases carry id, key,
// status, message and summary (n, median); compare_sides adds their samples and counters.
struct CompareSide {
    std::string database;  // named in compare_runs' messages
    RunRow run;
    std::vector<CaseRecord> cases;
};
CompareSide compare_side(const std::string& database, const RunRow& run, const std::vector<const CaseRow*>& rows);

using SampleMap = std::unordered_map<std::int64_t, Repetitions>;
using CounterMap = std::unordered_map<std::int64_t, std::vector<Counter>>;

// Whether comparing these runs normalises by roofline, which needs the cases' counters: runs of
// different devices or backends with options.cross_device.
bool needs_counters(const RunInfo& base, const RunInfo& candidate, const CompareOptions& options);

// A case of either run with its comparison; ids are 0 on the side that lacks the case.
struct ComparedCase {
    std::int64_t baseline_id = 0, candidate_id = 0;
    CaseComparison result;  // key only, when unmatched; replicates dropped
};

struct RunComparison {
    CompareOptions options;
    bool normalised = false;          // cross-device: figures are fractions of each run's roof
    bool paired = false;              // measured together: compared repetition by repetition
    std::vector<ComparedCase> cases;  // matched, then only in the baseline, then only in the candidate
    std::vector<std::string> warnings;
};

struct CompareControl {
    const std::atomic<bool>* stop = nullptr;                            // stops between chunks
    std::function<void(std::size_t done, std::size_t total)> progress;  // called from worker threads
    unsigned threads = 0;                                               // 0: one per core
    std::size_t chunk = 256;                                            // cases per chunk, both sides
};

// Compares the sides with compare_runs over chunks of cases that share family, variant, problem
// and configuration, so each pair lands in one chunk and the result is the one-call result
// (each case's bootstrap seed depends only on its key). `counters` are read only when
// needs_counters. Throws UsageError as compare_runs does (options out of range; runs of
// different devices or backends without cross_device); nullopt when stopped.
std::optional<RunComparison> compare_sides(CompareSide base, CompareSide candidate, const CompareOptions& options,
                                           const SampleMap& base_samples, const SampleMap& candidate_samples,
                                           const CounterMap& base_counters, const CounterMap& candidate_counters,
                                           const CompareControl& control = {});

// A row of the compare table: a comparison tied back to the explorer's rows.
struct CompareRow {
    CaseComparison result;
    QString label;                       // kernel and parameters
    const CaseRow* baseline = nullptr;   // owned by the caller; null when only in the candidate
    const CaseRow* candidate = nullptr;  // null when only in the baseline
    bool matched() const { return baseline && candidate; }
};

// The rows of a comparison's cases (moved in: a large run's are many), their ids looked up among
// `baseline` and `candidate` (the rows it was made from), worst first (see severity), so a table
// shows them in memwall compare's order without sorting 100,000 rows on the UI thread.
std::vector<CompareRow> compare_rows(std::vector<ComparedCase> cases, const std::vector<const CaseRow*>& baseline,
                                     const std::vector<const CaseRow*>& candidate);

// "SLOWER", ..., or "only in baseline" / "only in candidate".
QString verdict_text(const CompareRow& row);
QColor verdict_colour(Verdict v);
// Verdicts worst first (FAILED, SLOWER, UNSURE, FASTER, SAME), as memwall compare orders them;
// unmatched rows after.
int severity(const CompareRow& row);
// "2 SLOWER, 1 UNSURE, 12 SAME, 3 unmatched" over matched rows (verdicts with no row left
// out); "no case in both runs" when none matched.
QString verdict_summary(const std::vector<CompareRow>& rows);

}  // namespace memwall::gui
