// Exports of one stored run, for `memwall export`: the whole run as JSON, one CSV row per
// case, Google Benchmark's JSON format so that its tools/compare.py can read memwall runs, and
// the Bencher Metric Format that Bencher's `json` adapter tracks.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "results/store.hpp"

namespace memwall {

enum class ExportFormat {
    json,    // everything: run, tags, device properties, ceilings, cases with summary, samples,
             // counters, roofline
    csv,     // one RFC 4180 row per case
    gbench,  // Google Benchmark JSON: one "iteration" entry per sample plus aggregates
    bmf,     // Bencher Metric Format: each timed case's latency with the interval of its median
};
std::string_view to_string(ExportFormat f);
std::optional<ExportFormat> export_format_from(std::string_view s);

// "emulation" for cuda-emu (a CPU execution of CUDA code: never a GPU time), else "measured".
std::string_view timing_of(std::string_view backend);

struct ExportOptions {
    std::string memwall_version;  // of the memwall writing the export (the JSON format's)
};

// Writes run `run_id` of `store` to `out`. Roofline points use the median time and the run's
// own ceilings. In the gbench format, context.num_cpus, mhz_per_cpu and library_build_type
// come from the run's tags of those names (omitted when absent) and context.caches from the
// capacities of the run's ceilings. Throws InputError when the run does not exist or a stored
// JSON field is malformed.
void export_run(const Store& store, std::int64_t run_id, ExportFormat format, std::ostream& out,
                const ExportOptions& options);

// Writes tuning session `session_id` of `store` in the T4 autotuning results format (the
// autotuning community's "Open Autotuning Results Schema", version 1.0.0, as Kernel Tuner writes
// it): every trial in the order evaluated, its configuration, its validity, its samples as
// runtimes and its time and counters as measurements. Throws InputError when the session does
// not exist or a stored configuration is malformed.
void export_tuning_session_t4(const Store& store, std::int64_t session_id, std::ostream& out);

}  // namespace memwall
