// Who measures a case: this process (InProcessMeasurer), or a worker process that a crash, a
// hang or a runaway allocation takes down alone (IsolatedMeasurer, harness/isolated_measurer).
// The sweep runner and live tuning measure through this interface, so both are isolated alike.
#pragma once

#include <cstdint>

#include "harness/measure.hpp"
#include "harness/workload_cache.hpp"

namespace memwall {

class CaseMeasurer {
  public:
    virtual ~CaseMeasurer() = default;
    // measure_case on the case's workload (built from its problem and `seed`, kept for the next
    // case of the same problem). Never throws for a failing kernel or workload: the record's
    // status says what went wrong. Its run id, id and timestamps are left for the caller.
    // Throws Interrupted when an interrupt cut the case short: it has no record to keep.
    virtual CaseRecord measure(const PlannedCase& c, std::uint64_t seed, const MeasureOptions& opt) = 0;
};

class InProcessMeasurer final : public CaseMeasurer {
  public:
    explicit InProcessMeasurer(MemoryHierarchy mh) : mh_(std::move(mh)) {}
    CaseRecord measure(const PlannedCase& c, std::uint64_t seed, const MeasureOptions& opt) override;

  private:
    MemoryHierarchy mh_;
    WorkloadCache workloads_;
};

}  // namespace memwall
