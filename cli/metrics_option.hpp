// --metrics of the commands that measure cases (run, tune): the device counters collected over
// one more run of each case on the cuda backend (CUPTI's range profiler), by CUPTI's names.
// Other backends have no device profiler and ignore it.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace memwall::cli {

// --metrics LIST: "default" (what cupti::default_metrics() names), "none", or metric names
// separated by commas.
void add_metrics_option(CLI::App* cmd, std::string& metrics);

// The names `option` asks for. Throws UsageError for an empty name or one that cannot be a
// metric's (CUPTI's names are lower-case words joined by '_', '__' and '.'); whether the device's
// chip has it is checked when the first case is collected (`memwall metrics` checks offline).
std::vector<std::string> metrics_from(const std::string& option);

}  // namespace memwall::cli
