// `memwall run --tuned`: each case with tunables takes the best configuration stored for its
// device, backend, kernel and problem (best_tuned_config); cases with none keep the variant's
// defaults. On cuda-emu the best is the one predicted for `model`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "harness/sweep.hpp"
#include "metrics/device_specs.hpp"
#include "results/store.hpp"

namespace memwall {

struct TunedCases {
    std::vector<PlannedCase> cases;    // several default configurations of one problem become one
    std::size_t tuned = 0;             // cases that took a stored best
    std::vector<std::string> untuned;  // names of the cases with tunables but no stored best
};

// Unconfirmed bests of abandoned sessions are passed over unless `include_abandoned`.
TunedCases apply_tuned(const std::vector<PlannedCase>& cases, const Store& store, const DeviceSpec& model,
                       bool include_abandoned = false);

// --tuned replaces the variants' tunable axes: throws UsageError when `overrides` sweeps one.
void check_tuned_overrides(const std::vector<SweepPlan::Member>& members, const std::vector<std::string>& overrides);

}  // namespace memwall
