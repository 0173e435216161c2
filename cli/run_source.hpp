// How `memwall compare` names a run: an id, 'latest' or a tag key=value in the --db database;
// a database file (its latest run); or FILE:RUN (a run of that file).
#pragma once

#include <string>

#include "results/compare.hpp"

namespace memwall::cli {

struct RunSource {
    std::string database;
    std::string run;  // "latest", an id or key=value
};

// Which database and run `spec` names (nothing is opened).
RunSource parse_run_source(const std::string& spec, const std::string& default_db);

// Opens the database read-only and loads the run. Throws InputError (missing or malformed
// database) or UsageError (no such run), each with one clear line.
LoadedRun load_run_source(const std::string& spec, const std::string& default_db);

}  // namespace memwall::cli
