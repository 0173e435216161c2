// CUPTI's range profiler on a GPU: the metrics of one piece of work (a case's forward pass),
// collected as Nsight Compute collects a kernel's, in as many replay passes as the metrics need.
// User range and user replay: the work runs once per pass, each pass after `prepare` (outputs
// poisoned again, L2 flushed), so every pass starts from the same state and each metric sees
// the same run. Then the counter data is decoded and evaluated on the host.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "metrics/counter.hpp"

namespace memwall::cupti {

// The replay protocol, apart from CUPTI so its loop is tested without a GPU.
class ReplayTarget {
  public:
    virtual ~ReplayTarget() = default;
    virtual void start_pass() = 0;  // cuptiRangeProfilerStart
    virtual void push_range() = 0;  // cuptiRangeProfilerPushRange
    virtual void pop_range() = 0;   // cuptiRangeProfilerPopRange
    // cuptiRangeProfilerStop: true once every pass has been submitted.
    virtual bool stop_pass() = 0;
};

// Per pass: prepare(), then work() inside one range. Returns the passes taken. Throws
// std::runtime_error when the target wants more than `max_passes` (what the configuration said
// it takes), so a profiler that never completes cannot hang a sweep.
std::size_t replay(ReplayTarget& target, std::size_t max_passes, const std::function<void()>& prepare,
                   const std::function<void()>& work);

// Counters of CUPTI's values: named as CUPTI names them, source cupti, unit from the metric's
// dimension ("byte" -> "B", "nsecond" -> "ns", others as CUPTI says).
std::vector<Counter> counters_of(const std::vector<std::pair<std::string, double>>& values,
                                 const std::vector<std::string>& dimension_units);

// The range profiler of one device's context, configured for a metric list.
class RangeProfiler {
  public:
    // `context`: the CUcontext the work runs in; `device`: its CUDA device index. Throws
    // std::invalid_argument naming the metrics the device's chip does not have, Unavailable
    // where CUPTI cannot be loaded, std::runtime_error naming a CUPTI call that failed.
    RangeProfiler(void* context, int device, std::vector<std::string> metrics);
    ~RangeProfiler();
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    const std::string& chip() const;
    std::size_t passes() const;  // replay passes one collection takes

    // The metrics over one run of `work`, which must finish its device work before returning
    // (synchronize), as must `prepare`.
    std::vector<Counter> collect(const std::function<void()>& prepare, const std::function<void()>& work);

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace memwall::cupti
