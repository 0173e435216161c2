// The isolated case worker's protocol, version 1: one line per message.
//   worker:  memwall-case-worker 1
//   request:
//   {"family","variant","backend","problem":{..},"config":{..},"seed","sampler":{..},"case_timeout","metrics":[..]
//             [,"anchor":{..}]}
//   replies: stage <name>       as each stage begins (measure.hpp's MeasureOptions::stage)
//            result {"status","message","samples":[[s..]..],"sampling_stop","counters":[[name,value,unit,source]..],
//                    "anchor_samples":[s..],"seconds"}
//   end of input: the worker exits 0.
// "seconds" is the worker's own time for the case, so the parent can tell isolation's cost.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/catalogue.hpp"
#include "harness/measure.hpp"

namespace memwall {

inline constexpr const char* kCaseWorkerGreeting = "memwall-case-worker 1";

std::string encode_case_request(const PlannedCase& c, std::uint64_t seed, const MeasureOptions& opt);

struct CaseRequest {
    PlannedCase planned;
    std::uint64_t seed = 1;
    MeasureOptions options;
};
// Throws InputError when malformed, UsageError when the catalogue lacks its family or variant.
CaseRequest decode_case_request(const std::string& line, const Catalogue& catalogue);

// Counters as JSON, [[name, value, unit, source], ...] (both worker protocols); reading throws
// InputError for an unknown source, and takes null (JSON's NaN) as NaN.
nlohmann::json counters_to_json(const std::vector<Counter>& counters);
std::vector<Counter> counters_from_json(const nlohmann::json& j);

// The record's key is not sent: the parent knows which case it asked for.
std::string encode_case_result(const CaseRecord& r, double seconds);
// Fills status, message, samples (and their summary) and counters of `r`; returns the worker's
// seconds. Throws InputError when malformed.
double decode_case_result(const std::string& json, CaseRecord& r);

}  // namespace memwall
