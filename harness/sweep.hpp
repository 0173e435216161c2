// A sweep: which families, variants and backends, and which axis values. It is stored with
// the run as JSON, so `memwall run --resume` can expand exactly the same cases again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "core/params.hpp"
#include "harness/sampler.hpp"

namespace memwall {

struct SweepSpec {
    std::vector<std::string> families;   // empty: all
    std::vector<std::string> variants;   // empty: all
    std::vector<Backend> backends{Backend::cpu};
    std::vector<std::string> overrides;  // "name=spec", as typed
    std::vector<std::vector<std::string>> zips;  // added to the families' default zips
    bool unzip = false;                  // drop the families' default zips
    std::uint64_t seed = 1;              // inputs
    SamplerSettings sampler;

    nlohmann::json to_json() const;
    static SweepSpec from_json(const nlohmann::json& j);  // throws InputError
};

// One case to measure.
struct PlannedCase {
    const Family* family = nullptr;
    const Variant* variant = nullptr;
    Params problem;
    Params config;

    std::string name() const;  // "family/variant/backend/problem-label/config-label"
};

// Expands the spec over the catalogue: problem-major order (cases of one problem are
// adjacent, so its workload is built once). Throws UsageError for unknown names, malformed or
// unknown axes, unavailable backends, or an empty sweep.
std::vector<PlannedCase> expand_sweep(const SweepSpec& spec, const Catalogue& cat);

}  // namespace memwall
