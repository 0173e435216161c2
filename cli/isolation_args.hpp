// The options of every command that measures cases (run, ci, tune): isolation in worker
// processes, on unless --no-isolate, the memory a case may allocate, and the scratch directory.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "harness/isolated_measurer.hpp"

namespace memwall::cli {

struct IsolationArgs {
    bool no_isolate = false;
    std::string case_memory;  // "" none, else a size ("4GiB")
    std::string scratch;      // --scratch DIR; "" leaves $MEMWALL_SCRATCH as it is
};

// --scratch DIR sets $MEMWALL_SCRATCH as it is parsed, before any family validates its problems:
// families that keep data in a file (kv_offload's slow tier) read it there, and the case workers
// inherit it.
void add_isolation_options(CLI::App* cmd, IsolationArgs& a);

// Workers are this very executable (`case-worker`), so a user's own main that calls run_cli
// serves its own kernels. Throws UsageError for a malformed --case-memory, or with
// --no-isolate (in this process, nothing enforces the limit).
IsolationOptions isolation_from(const IsolationArgs& a);

// `v` to about `digits` significant digits, never in exponent form ("100", "0.071", "58.1").
std::string plain_number(double v, int digits);

// One line for the run's summary: what isolation cost ("isolation: 48 cases in 1 worker,
// 0.012 s overhead, 0.02% of 58.1 s").
std::string isolation_summary(const IsolationStats& s);

}  // namespace memwall::cli
