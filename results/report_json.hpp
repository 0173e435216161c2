// JSON pieces the comparison report and the history share, so a case reads the same in both.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "results/store.hpp"
#include "stats/statistics.hpp"

namespace memwall {

// A canonical parameter string as a JSON object ({} when empty).
nlohmann::json params_json(const std::string& canonical);
// {"family", "variant", "backend", "problem": {...}, "config": {...}}
nlohmann::json key_json(const CaseKey& k);
// [lo, hi]
nlohmann::json interval_json(Interval i);

}  // namespace memwall
