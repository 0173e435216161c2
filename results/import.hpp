// Runs measured by other harnesses, read into the store so that compare, history, show and the
// charts work on them: Google Benchmark JSON (as `memwall run --benchmark_out` and `memwall
// export --format gbench` write it) and nvbench JSON. memwall checked none of their results
// against a reference, so an imported run is tagged `imported` (the format), its timed cases are
// `unchecked` (as a benchmark's without a reference), and each case's message says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/store.hpp"

namespace memwall {

enum class ImportFormat { gbench, nvbench };
std::string_view to_string(ImportFormat f);
std::optional<ImportFormat> import_format_from(std::string_view s);

// A run read from a file, not yet stored: the run row (host, device, backends, tags) and its
// cases with their samples.
struct ImportedRun {
    RunInfo run;
    std::vector<CaseRecord> cases;
};

// Parses `text`, read from `source` (named in errors). Throws InputError, naming the source and
// what is wrong, for text that is not JSON of the format or holds no benchmark.
ImportedRun parse_import(ImportFormat format, const std::string& text, const std::string& source);

// Stores the run complete, with its cases; returns its id.
std::int64_t store_imported_run(Store& store, const ImportedRun& imported);

}  // namespace memwall
