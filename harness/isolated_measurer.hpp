// Cases measured in a worker process (`memwall case-worker`), so that a case that crashes, is
// killed, hangs at any stage past --case-timeout or allocates past the memory limit costs that
// case alone: it is recorded as failed or timeout with the signal or the stage, the worker is
// replaced, and the sweep goes on. One worker serves case after case and keeps the workload of
// the problem it measures, so isolation costs a pipe round trip per case (bench_isolation).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/case_measurer.hpp"
#include "harness/child_process.hpp"

namespace memwall {

struct IsolationOptions {
    // The argv of a worker: a memwall executable and "case-worker". Empty: cases run in this
    // process (--no-isolate, for debugging a kernel).
    std::vector<std::string> worker_command;
    std::uint64_t memory_limit = 0;  // bytes a worker may allocate (RLIMIT_DATA); 0: no limit
    bool enabled() const { return !worker_command.empty(); }
};

// What isolation cost, for the run's summary and bench_isolation.
struct IsolationStats {
    std::size_t cases = 0;          // sent to a worker
    std::size_t worker_starts = 0;  // the first, and one after each case that took its worker down
    double start_seconds = 0;       // from fork to each worker's greeting
    double case_seconds = 0;        // the workers' own time for their cases
    double overhead_seconds = 0;    // round trips beyond that: requests, replies, scheduling
};

class IsolatedMeasurer final : public CaseMeasurer {
  public:
    explicit IsolatedMeasurer(IsolationOptions options);
    // Starts the worker now, if none runs; throws InputError when it cannot be started.
    void ready();
    // Throws InputError only when no worker can be started at all, and Interrupted (setting
    // stop_requested) when an interrupt signal killed the worker: that case is not measured.
    CaseRecord measure(const PlannedCase& c, std::uint64_t seed, const MeasureOptions& opt) override;
    const IsolationStats& stats() const { return stats_; }

  private:
    IsolationOptions options_;
    std::unique_ptr<ChildProcess> worker_;
    IsolationStats stats_;
};

// Isolated when `isolation` is enabled, else in this process.
std::unique_ptr<CaseMeasurer> make_measurer(const IsolationOptions& isolation, const MemoryHierarchy& mh);

}  // namespace memwall
