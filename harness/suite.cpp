#include "harness/suite.hpp"

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace memwall {

namespace {

using nlohmann::json;

void only_keys(const json& j, const std::set<std::string>& allowed, const std::string& where) {
    for (const auto& [k, v] : j.items())
        if (!allowed.count(k)) throw InputError(where + ": unknown key '" + k + "'");
}

SamplerSettings sampler_from(const json& j, const std::string& where) {
    if (!j.is_object()) throw InputError(where + ": \"sampler\" must be an object");
    only_keys(j, {"warmup_runs", "min_samples", "min_time", "max_noise", "timeout", "max_samples"},
              where + ": sampler");
    SamplerSettings s;
    s.warmup_runs = j.value("warmup_runs", s.warmup_runs);
    s.min_samples = j.value("min_samples", s.min_samples);
    s.min_time = j.value("min_time", s.min_time);
    s.max_noise = j.value("max_noise", s.max_noise);
    s.timeout = j.value("timeout", s.timeout);
    s.max_samples = j.value("max_samples", s.max_samples);
    return s;
}

}  // namespace

Suite load_suite(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw EnvironmentError(path + ": is a directory, not a suite file");
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
    try {
        s.name = j.value("name", std::filesystem::path(path).stem().string());
        s.description = j.value("description", "");
        s.sweep.families = j.value("families", s.sweep.families);
        s.sweep.variants = j.value("variants", s.sweep.variants);
        if (j.contains("backends")) {
            s.sweep.backends.clear();
            for (const auto& name : j.at("backends").get<std::vector<std::string>>()) {
                auto b = backend_from(name);
                if (!b) throw InputError(path + ": unknown backend '" + name + "'");
                s.sweep.backends.push_back(*b);
            }
        }
        s.sweep.overrides = j.value("axes", s.sweep.overrides);
        s.sweep.zips = j.value("zips", s.sweep.zips);
        s.sweep.unzip = j.value("unzip", s.sweep.unzip);
        s.sweep.seed = j.value("seed", s.sweep.seed);
        if (j.contains("sampler")) s.sweep.sampler = sampler_from(j.at("sampler"), path);
        s.repetitions = j.value("repetitions", s.repetitions);
        s.interleave = j.value("interleave", s.interleave);
        s.compare.threshold = j.value("threshold", s.compare.threshold);
        s.compare.alpha = j.value("alpha", s.compare.alpha);
    } catch (const json::exception& e) {
        throw InputError(path + ": " + e.what());
    }
    if (s.repetitions < 1) throw InputError(path + ": \"repetitions\" must be >= 1");
    try {
        s.sweep.sampler.validate();
        s.compare.validate();
    } catch (const UsageError& e) {  // the messages name the CLI options the keys mirror
        throw InputError(path + ": " + e.what());
    }
    return s;
}

}  // namespace memwall
