#include "harness/suite.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/input_file.hpp"

namespace memwall {

namespace {

using nlohmann::json;

void only_keys(const json& j, const std::set<std::string>& allowed, const std::string& where) {
    for (const auto& [k, v] : j.items())
        if (!allowed.count(k)) throw InputError(where + ": unknown key '" + k + "'");
}

// nlohmann's message without its "[json.exception...] " prefix.
std::string short_message(const json::exception& e) {
    std::string m = e.what();
    if (auto close = m.find("] "); !m.empty() && m.front() == '[' && close != std::string::npos) m.erase(0, close + 2);
    return m;
}

// The value of `key`, or `fallback` when it is absent; a value of the wrong type is named by
// its key (nlohmann's own message says only which type it expected).
template <class T>
T field(const json& j, const char* key, T fallback, const std::string& where) {
    auto it = j.find(key);
    if (it == j.end()) return fallback;
    try {
        return it->get<T>();
    } catch (const json::exception& e) {
        throw InputError(where + ": \"" + key + "\": " + short_message(e));
    }
}

// An integer key in [lo, hi]. Not get<Int>(): it truncates 2.5 and is undefined for 1e30.
template <class Int>
Int integer(const json& j, const char* key, Int fallback, Int lo, Int hi, const std::string& where) {
    auto it = j.find(key);
    if (it == j.end()) return fallback;
    std::optional<Int> v;
    if (it->is_number_unsigned()) {
        if (auto u = it->get<std::uint64_t>(); std::in_range<Int>(u)) v = static_cast<Int>(u);
    } else if (it->is_number_integer()) {
        if (auto i = it->get<std::int64_t>(); std::in_range<Int>(i)) v = static_cast<Int>(i);
    }
    if (!v || *v < lo || *v > hi)
        throw InputError(where + ": \"" + key + "\" must be an integer from " + std::to_string(lo) + " to " +
                         std::to_string(hi) + ", not " + it->dump());
    return *v;
}

constexpr int kMaxInt = std::numeric_limits<int>::max();
constexpr int kMaxRepetitions = 1000000;

SamplerSettings sampler_from(const json& j, const std::string& where) {
    if (!j.is_object()) throw InputError(where + ": \"sampler\" must be an object");
    const std::string at = where + ": sampler";
    only_keys(j, {"warmup_runs", "min_samples", "min_time", "max_noise", "timeout", "max_samples"}, at);
    SamplerSettings s;
    s.warmup_runs = integer(j, "warmup_runs", s.warmup_runs, 0, kMaxInt, at);
    s.min_samples = integer(j, "min_samples", s.min_samples, 1, kMaxInt, at);
    s.min_time = field(j, "min_time", s.min_time, at);
    s.max_noise = field(j, "max_noise", s.max_noise, at);
    s.timeout = field(j, "timeout", s.timeout, at);
    s.max_samples = integer(j, "max_samples", s.max_samples, 1, kMaxInt, at);
    return s;
}

}  // namespace

Suite load_suite(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw EnvironmentError(path + ": is a directory, not a suite file");
    refuse_special_file(path);
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot read the suite file");
    json j;
    try {
        j = json::parse(in);
    } catch (const json::exception& e) {
        throw InputError(path + ": not JSON (" + e.what() + ")");
    }
    if (!j.is_object()) throw InputError(path + ": a suite is a JSON object");
    only_keys(j,
              {"name", "description", "families", "variants", "backends", "axes", "zips", "unzip", "seed", "sampler",
               "repetitions", "interleave", "threshold", "alpha"},
              path);
    Suite s;
    s.name = field(j, "name", std::filesystem::path(path).stem().string(), path);
    s.description = field(j, "description", std::string(), path);
    s.sweep.families = field(j, "families", s.sweep.families, path);
    s.sweep.variants = field(j, "variants", s.sweep.variants, path);
    if (j.contains("backends")) {
        s.sweep.backends.clear();
        for (const auto& name : field(j, "backends", std::vector<std::string>(), path)) {
            auto b = backend_from(name);
            if (!b) throw InputError(path + ": unknown backend '" + name + "'");
            s.sweep.backends.push_back(*b);
        }
    }
    s.sweep.overrides = field(j, "axes", s.sweep.overrides, path);
    s.sweep.zips = field(j, "zips", s.sweep.zips, path);
    s.sweep.unzip = field(j, "unzip", s.sweep.unzip, path);
    s.sweep.seed = integer(j, "seed", s.sweep.seed, std::uint64_t{0}, std::numeric_limits<std::uint64_t>::max(), path);
    if (j.contains("sampler")) s.sweep.sampler = sampler_from(j.at("sampler"), path);
    s.repetitions = integer(j, "repetitions", s.repetitions, 1, kMaxRepetitions, path);
    s.interleave = field(j, "interleave", s.interleave, path);
    s.compare.threshold = field(j, "threshold", s.compare.threshold, path);
    s.compare.alpha = field(j, "alpha", s.compare.alpha, path);
    try {
        s.sweep.sampler.validate();
        s.compare.validate();
    } catch (const UsageError& e) {  // the messages name the CLI options the keys mirror
        throw InputError(path + ": " + e.what());
    }
    return s;
}

}  // namespace memwall
