// The sweep runner: every case missing from the run is registered with Google Benchmark at run
// time, measured (measure_case, in a worker process unless isolation is off), and committed to
// the store as soon as it is measured.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "harness/isolated_measurer.hpp"
#include "harness/measure.hpp"
#include "harness/sweep.hpp"
#include "results/store.hpp"

namespace benchmark {
class BenchmarkReporter;
}

namespace memwall {

struct RunnerOptions {
    MeasureOptions measure;
    IsolationOptions isolation;  // worker processes per case; in this process when not enabled
    std::uint64_t seed = 1;
    int repetitions = 1;   // Google Benchmark's --benchmark_repetitions: samples per rep are kept
    bool progress = true;  // progress bar on stderr (only drawn on a terminal)
};

struct RunnerResult {
    std::size_t measured = 0;  // cases committed by this invocation
    std::size_t skipped = 0;   // already in the run (--resume)
    std::size_t not_ok = 0;    // committed with a status other than ok
    bool interrupted = false;
    IsolationStats isolation;  // empty when not isolated
};

// What a command changes in each batch before it is measured (run --tuned: the stored best
// configurations); empty: nothing.
using BatchEdit = std::function<void(std::vector<PlannedCase>&)>;

// Measures the plan's cases missing from the run, a batch at a time (SweepPlan::Pass): each
// batch's cases are registered with Google Benchmark and run with `display` (nullptr: its
// default console reporter), and each case is committed when its last repetition ends. Once
// stop_requested is set (harness/interrupt.hpp) the case in flight finishes, unless the
// interrupt killed its worker (then it is not stored), and no other starts.
RunnerResult run_cases(Store& store, std::int64_t run_id, const SweepPlan& plan, const MemoryHierarchy& mh,
                       const RunnerOptions& opt, benchmark::BenchmarkReporter* display, const BatchEdit& edit = {});

}  // namespace memwall
