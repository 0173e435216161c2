// Where a run's ceilings come from: measured now, or reused from this host's latest run.
#pragma once

#include <cstdint>
#include <string>

#include "profiler/ceilings.hpp"
#include "results/store.hpp"

namespace memwall::cli {

// Measures the CPU ceilings, with a progress line on stderr when `progress` and it is a
// terminal; the levels not found are in the measurement's not_found.
CeilingMeasurement measure_ceilings_now(const MemoryHierarchy& mh, bool progress);

// mode "measure": measure now; "reuse": copy the newest ceilings measured on this host (their
// method names the run they came from), measuring when there are none; "none": no ceilings.
Ceilings ceilings_for_run(const Store& store, std::int64_t run_id, const std::string& mode,
                          const MemoryHierarchy& mh, bool progress);

}  // namespace memwall::cli
