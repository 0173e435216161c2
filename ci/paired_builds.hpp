// Paired builds: two builds of memwall timed in pairs (`memwall ci --baseline-build`): each build's
// `memwall measure-worker` serves a suite's cases, the cases both have are matched by key, and
// measure_paired times every (case, repetition) on both, samples alternating. The two runs are
// stored in one store, each tagged paired_with the other's, so compare_runs compares them pair by
// pair.
#pragma once

#include <cstdint>
#include <string>

#include "harness/run_session.hpp"
#include "harness/suite.hpp"
#include "results/store.hpp"

namespace memwall {

struct PairedBuilds {
    std::int64_t base_run = 0, candidate_run = 0;
    std::size_t cases = 0;                          // measured on both
    std::size_t only_candidate = 0, only_base = 0;  // not measured: the other build lacks them
    std::size_t not_ok = 0;                         // candidate cases that did not pass
    bool interrupted = false;                       // both runs are then stored as interrupted
};

// `candidate` is this build's run row. The baseline's takes its revision and version from its
// worker, and no axes (its catalogue is not this one's). The store at `db_path` is opened (and
// created) only once both workers answered. Throws UsageError or InputError, touching no file,
// when a build is not a memwall worker or the two share no case of the suite.
PairedBuilds measure_paired_builds(const std::string& db_path, const Suite& suite, const std::string& suite_path,
                                   const std::string& baseline_exe, const std::string& candidate_exe, RunInfo candidate,
                                   const SessionOptions& options);

}  // namespace memwall
