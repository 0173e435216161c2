// How a user names a run: "latest", an id, or a tag "key=value" (the newest run carrying it).
#pragma once

#include <cstdint>
#include <string>

#include "results/store.hpp"

namespace memwall::cli {

// Throws UsageError when nothing matches.
std::int64_t resolve_run(const Store& store, const std::string& ref);

// resolve_run for a command that needs cases: throws UsageError for a run without any (such as
// the one `memwall ceilings` stores) rather than quietly producing an empty result.
std::int64_t resolve_run_with_cases(const Store& store, const std::string& ref);

}  // namespace memwall::cli
