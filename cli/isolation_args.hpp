// The options of every command that measures cases (run, ci, tune): isolation in worker
// processes, on unless --no-isolate, and the memory a case may allocate.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "harness/isolated_measurer.hpp"

namespace memwall::cli {

struct IsolationArgs {
    bool no_isolate = false;
    std::string case_memory;  // "" none, else a size ("4GiB")
};

void add_isolation_options(CLI::App* cmd, IsolationArgs& a);

// Workers are this very executable (`case-worker`), so a user's own main that calls run_cli
// serves its own kernels. Throws UsageError for a malformed --case-memory, or with
// --no-isolate (in this process, nothing enforces the limit).
IsolationOptions isolation_from(const IsolationArgs& a);

// One line for the run's summary: what isolation cost ("isolation: 48 cases in 1 worker,
// 0.012 s overhead, 0.02% of 58.1 s").
std::string isolation_summary(const IsolationStats& s);

}  // namespace memwall::cli
