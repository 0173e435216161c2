// Measuring one case: check against the reference first, then timed samples and counters.
// Used by the sweep runner and, one configuration at a time, by the tuner.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalogue.hpp"
#include "harness/sampler.hpp"
#include "harness/sweep.hpp"
#include "metrics/memory_hierarchy.hpp"
#include "results/store.hpp"

namespace memwall {

struct MeasureOptions {
    SamplerSettings sampler;
    // A case whose checked run alone takes longer than this is recorded as timeout, untimed.
    // Isolated (harness/isolated_measurer), the whole case is also killed past it, at any stage.
    double case_timeout = 120;
    // Called as each stage begins: "set-up", "check", "warm-up", "sampling" (may be empty), so
    // a case that hangs or dies is reported with where.
    std::function<void(std::string_view)> stage;
    // Device counters collected over one more run of each timed case, by their profiler names
    // (CUPTI's on cuda; backends without a profiler ignore them). Empty: none.
    std::vector<std::string> metrics;
    // A configuration of the same variant and problem timed beside the case, sample for sample
    // (take_paired_samples): on a shared machine, whose speed drifts over seconds as its
    // neighbours come and go, the drift cancels in the ratio of each pair. It is prepared and
    // checked like the case (failing that, the case fails); its samples go to
    // CaseRecord::anchor_samples. Live tuning times every configuration beside one anchor.
    std::optional<Params> anchor;
};

// A case checked and ready to time: `record` holds its key, counters and status; `instance` is
// set only when the status is ok (timed runs then go through instance->run_timed()).
struct PreparedCase {
    CaseRecord record;
    std::unique_ptr<Instance> instance;
};
// Poisons the outputs, runs once and checks against the workload's reference (status
// wrong_result, timeout or failed when that does not pass). Never throws for a failing kernel.
PreparedCase prepare_case(const PlannedCase& c, const Workload& w, const MemoryHierarchy& mh,
                          const MeasureOptions& opt);

// Poisons the outputs, runs once, checks against the workload's reference; only a case that
// passes is timed. Never throws for a failing kernel: exceptions become status failed. The
// record's run id, id and timestamps are left for the caller.
CaseRecord measure_case(const PlannedCase& c, const Workload& w, const MemoryHierarchy& mh, const MeasureOptions& opt);

CaseKey key_of(const PlannedCase& c);

}  // namespace memwall
