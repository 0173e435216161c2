// CPU counters through perf_event_open. Many virtual machines expose no hardware PMU:
// probe_perf_events() says why, and opening the counters then fails (an error, never zeros).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/counter.hpp"

namespace memwall {

struct PerfAvailability {
    bool available = false;
    std::string reason;  // one line when unavailable, e.g. "perf_event_open(cycles): ..."
};

// Whether this process can count CPU cycles in user space.
PerfAvailability probe_perf_events();

// One event to count and the counter it becomes.
struct PerfEventSpec {
    std::string name;  // counter name
    std::string unit;
    std::uint32_t type = 0;    // perf_event_attr.type (PERF_TYPE_*)
    std::uint64_t config = 0;  // perf_event_attr.config
    bool required = true;      // when false, left out if the PMU does not expose it
};

// cycles and instructions (required); last-level-cache and L1d loads and load misses where the
// PMU exposes them ("llc.loads", "llc.load_misses", "l1d.loads", "l1d.load_misses").
std::vector<PerfEventSpec> default_perf_events();

// A group of counters over every thread of this process: those alive when it is opened and,
// through inherit, those they create later (so OpenMP threads count). User space only.
class PerfCounterGroup {
  public:
    // Throws std::runtime_error, with the same one-line reason as the probe, when a required
    // event cannot be opened.
    explicit PerfCounterGroup(const std::vector<PerfEventSpec>& events = default_perf_events());
    ~PerfCounterGroup();
    PerfCounterGroup(PerfCounterGroup&& o) noexcept;
    PerfCounterGroup& operator=(PerfCounterGroup&& o) noexcept;
    PerfCounterGroup(const PerfCounterGroup&) = delete;
    PerfCounterGroup& operator=(const PerfCounterGroup&) = delete;

    void start();  // resets the counts and starts counting
    void stop();
    // Counts between start() and stop() (or now), scaled when the kernel multiplexed them,
    // with source perf. Events the PMU never scheduled are left out. Throws std::logic_error
    // before the first start().
    std::vector<Counter> read() const;
    // Optional events left out at opening because the PMU does not expose them.
    const std::vector<std::string>& missing() const { return missing_; }

  private:
    void close_all();

    std::vector<PerfEventSpec> events_;  // the opened ones
    std::vector<std::vector<int>> fds_;  // fds_[thread][event]; [thread][0] leads its group
    std::vector<std::string> missing_;
    bool started_ = false;
};

}  // namespace memwall
