// Google Benchmark JSON (its --benchmark_out_format=json): {"context": {...}, "benchmarks":
// [{"name", "run_name", "run_type", "real_time", "time_unit", "error_occurred", ...}, ...]}.
// Each iteration entry of a benchmark is one repetition; aggregates are computed again from
// them, not read. A name memwall wrote (family/variant/backend/problem/config, then Google
// Benchmark's own suffixes) gives the case's key; any other name is kept as variant and
// arguments of the family `gbench`.
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "results/import_formats.hpp"

namespace memwall::import_detail {

namespace {

using nlohmann::json;

double seconds_per(const std::string& unit, const std::string& where) {
    if (unit == "ns") return 1e-9;
    if (unit == "us") return 1e-6;
    if (unit == "ms") return 1e-3;
    if (unit == "s") return 1.0;
    throw InputError(where + ": time_unit \"" + unit + "\" is none of ns, us, ms, s");
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t at = s.find(sep); at != std::string::npos; at = s.find(sep, start)) {
        parts.push_back(s.substr(start, at - start));
        start = at + 1;
    }
    parts.push_back(s.substr(start));
    return parts;
}

// Google Benchmark appends these to a registered name ("/iterations:1/repeats:5/manual_time").
bool is_gbench_suffix(const std::string& part) {
    for (const char* prefix : {"iterations:", "repeats:", "threads:", "min_time:", "min_warmup_time:"})
        if (part.rfind(prefix, 0) == 0) return true;
    return part == "manual_time" || part == "real_time" || part == "process_time";
}

// "a=1,b=x" as parameters; nullopt unless every item is key=value.
std::optional<Params> params_from_label(const std::string& label) {
    Params p;
    for (const std::string& item : split(label, ',')) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) return std::nullopt;
        p.set(item.substr(0, eq), value_from_text(item.substr(eq + 1)));
    }
    return p;
}

CaseKey key_from_name(const std::string& name) {
    std::vector<std::string> parts = split(name, '/');
    while (parts.size() > 1 && is_gbench_suffix(parts.back())) parts.pop_back();
    static const std::set<std::string> backends = {"cpu", "cuda", "cuda-emu"};
    if (parts.size() >= 4 && backends.count(parts[2])) {
        // The problem's label may hold a path with slashes: the configuration is the last part
        // only when both sides read as key=value lists.
        std::string rest = parts[3];
        for (std::size_t i = 4; i < parts.size(); ++i) rest += "/" + parts[i];
        const std::size_t last = rest.rfind('/');
        if (last != std::string::npos) {
            const auto problem = params_from_label(rest.substr(0, last));
            const auto config = params_from_label(rest.substr(last + 1));
            if (problem && config) return {parts[0], parts[1], parts[2], problem->canonical(), config->canonical()};
        }
        if (const auto problem = params_from_label(rest))
            return {parts[0], parts[1], parts[2], problem->canonical(), "{}"};
    }
    Params args;
    std::string rest;
    for (std::size_t i = 1; i < parts.size(); ++i) rest += (i > 1 ? "/" : "") + parts[i];
    if (!rest.empty()) args.set("args", rest);
    return {"gbench", parts[0], "cpu", args.canonical(), "{}"};
}

// memwall's skipped cases read "<status>: <message>".
std::pair<CaseStatus, std::string> failure_of(const std::string& error) {
    const std::size_t colon = error.find(": ");
    if (colon != std::string::npos)
        if (const auto s = case_status_from(error.substr(0, colon)); s && !ran(*s))
            return {*s, error.substr(colon + 2)};
    return {CaseStatus::failed, error};
}

}  // namespace

ImportedRun parse_gbench(const json& doc, const std::string& source) {
    if (!doc.is_object() || !doc.contains("benchmarks") || !doc.at("benchmarks").is_array())
        throw InputError(source + ": not Google Benchmark JSON (no \"benchmarks\" array)");
    const json context = doc.contains("context") && doc.at("context").is_object() ? doc.at("context") : json::object();

    std::map<CaseKey, std::size_t> index_of;  // names that differ only by Google Benchmark's suffixes share a case
    std::vector<CaseRecord> cases;
    std::size_t n = 0;
    for (const json& b : doc.at("benchmarks")) {
        const std::string where = source + ": benchmarks[" + std::to_string(n++) + "]";
        if (!b.is_object() || !b.contains("name") || !b.at("name").is_string())
            throw InputError(where + " has no \"name\"");
        if (string_or(b, "run_type", "iteration") == "aggregate") continue;
        const std::string name = string_or(b, "run_name", b.at("name").get<std::string>());
        CaseKey key = key_from_name(name);
        auto [it, fresh] = index_of.try_emplace(key, cases.size());
        if (fresh) cases.push_back(imported_case(std::move(key), {}, "Google Benchmark: " + name));
        CaseRecord& c = cases[it->second];
        if (bool_or(b, "error_occurred", false)) {
            std::tie(c.status, c.message) = failure_of(string_or(b, "error_message", "error"));
            c.samples.clear();
            continue;
        }
        if (c.status != CaseStatus::unchecked) continue;  // failed: no times
        if (!b.contains("real_time") || !b.at("real_time").is_number() || !(b.at("real_time").get<double>() >= 0))
            throw InputError(where + " (" + name + ") has no non-negative \"real_time\"");
        if (!b.contains("time_unit") || !b.at("time_unit").is_string())
            throw InputError(where + " (" + name + ") has no \"time_unit\"");
        const double seconds =
            b.at("real_time").get<double>() * seconds_per(b.at("time_unit").get<std::string>(), where);
        if (!std::isfinite(seconds)) throw InputError(where + " (" + name + ") has a time out of range");
        c.samples.push_back({seconds});
    }

    ImportedRun run;
    run.run.host = string_or(context, "host_name", "unknown");
    std::string device = string_or(context, "memwall_device", "");
    if (device.empty()) {
        device = run.run.host;
        if (context.contains("num_cpus") && context.at("num_cpus").is_number_integer())
            device += ", " + std::to_string(context.at("num_cpus").get<std::int64_t>()) + " CPUs";
    }
    run.run.device = device;
    std::set<std::string> backends;
    for (const CaseRecord& c : cases)
        if (backends.insert(c.key.backend).second)
            run.run.backend += (run.run.backend.empty() ? "" : ",") + c.key.backend;
    run.run.tags = imported_tags(ImportFormat::gbench, source);
    if (const std::string date = string_or(context, "date", ""); !date.empty()) run.run.tags["measured_on"] = date;
    run.cases = std::move(cases);
    return run;
}

}  // namespace memwall::import_detail
