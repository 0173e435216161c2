// Kernel Tuner cache files: a header (tune_params_keys, tune_params, objective, ...) and a
// `cache` object mapping "v1,v2,..." to an entry holding every parameter, `time` (ms) and the
// compile/verification/benchmark times (ms). Failures are marked either by "__error__" (newer
// writer) or by the error class name in `time` itself (older writer).
#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/errors.hpp"
#include "tuner/json_values.hpp"
#include "tuner/recorded_space.hpp"

namespace memwall {

namespace {

using importer::short_message;
using nlohmann::json;

// Older Kernel Tuner versions stored this time for configurations that could not run.
constexpr double kOldFailureTime = 1e20;

EvalStatus status_of_error_class(std::string_view name) {
    if (name == "InvalidConfig") return EvalStatus::invalid;
    if (name == "CompilationFailedConfig") return EvalStatus::compile_failed;
    if (name == "RuntimeFailedConfig") return EvalStatus::runtime_failed;
    return EvalStatus::failed;
}

void rtrim(std::string& s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
}

// Kernel Tuner appends one entry per line, each followed by a comma, and writes the closing
// braces when tuning ends; an interrupted run leaves them out, and maybe half a line.
// Returns the repaired text and what was done, or nullopt when it does not parse either way.
std::optional<std::pair<json, std::string>> parse_unterminated(std::string text) {
    rtrim(text);
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::string closed = text;
        rtrim(closed);
        if (!closed.empty() && closed.back() == ',') closed.pop_back();
        closed += "}\n}";
        json j = json::parse(closed, nullptr, /*allow_exceptions=*/false);
        if (!j.is_discarded())
            return std::pair{std::move(j), attempt == 0
                                               ? std::string("closed the braces")
                                               : std::string("closed the braces and dropped a partial last entry")};
        const auto newline = text.find_last_of('\n');
        if (newline == std::string::npos) break;
        text.erase(newline);
    }
    return std::nullopt;
}

const json& member(const json& obj, const char* name, std::string_view origin) {
    auto it = obj.find(name);
    if (it == obj.end()) throw InputError(std::string(origin) + ": not a Kernel Tuner cache (no \"" + name + "\")");
    return *it;
}

double ms_field(const json& entry, const char* name) {
    auto it = entry.find(name);
    return it != entry.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

RecordedSpace parse_kernel_tuner_cache(std::string text, std::string_view origin) {
    const std::string where(origin);
    RecordedSpace rs;
    rs.origin = where;
    rs.format = "kerneltuner";

    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        std::string trimmed = text;
        rtrim(trimmed);
        // Only an error at the very end means an unterminated file; anything else is malformed.
        if (e.byte < trimmed.size()) throw InputError(where + ": malformed JSON: " + short_message(e));
        auto repaired = parse_unterminated(std::move(text));
        if (!repaired) throw InputError(where + ": malformed JSON: " + short_message(e));
        doc = std::move(repaired->first);
        rs.notes.push_back("unterminated file (interrupted run?): " + repaired->second);
    } catch (const json::exception& e) {  // a number beyond a double (1e400)
        throw InputError(where + ": malformed JSON: " + short_message(e));
    }
    if (!doc.is_object()) throw InputError(where + ": not a Kernel Tuner cache (top level is not an object)");

    if (auto it = doc.find("objective"); it != doc.end() && *it != "time")
        throw InputError(where + ": objective '" + (it->is_string() ? it->get<std::string>() : it->dump()) +
                         "' is not supported (replay minimises time)");
    if (auto it = doc.find("device_name"); it != doc.end() && it->is_string()) rs.device = it->get<std::string>();
    if (auto it = doc.find("kernel_name"); it != doc.end() && it->is_string()) rs.kernel = it->get<std::string>();

    const json& keys = member(doc, "tune_params_keys", where);
    const json& tune_params = member(doc, "tune_params", where);
    const json& cache = member(doc, "cache", where);
    if (!keys.is_array() || keys.empty() || !tune_params.is_object() || !cache.is_object())
        throw InputError(where +
                         ": malformed header (tune_params_keys must be a non-empty list, "
                         "tune_params and cache objects)");

    std::vector<Parameter> parameters;
    for (const json& k : keys) {
        if (!k.is_string()) throw InputError(where + ": tune_params_keys holds a non-string");
        const std::string name = k.get<std::string>();
        auto values = tune_params.find(name);
        if (values == tune_params.end() || !values->is_array() || values->empty())
            throw InputError(where + ": tune_params has no value list for '" + name + "'");
        Parameter p{name, {}};
        for (const json& v : *values) {
            auto value = importer::value_of(v);
            if (!value) throw InputError(where + ": tune_params['" + name + "'] holds " + v.dump());
            p.values.push_back(std::move(*value));
        }
        parameters.push_back(std::move(p));
    }

    std::vector<RecordedRow> rows;
    rows.reserve(cache.size());
    for (const auto& [key, entry] : cache.items()) {
        const std::string at = where + ": cache entry \"" + key + "\"";
        if (!entry.is_object()) throw InputError(at + " is not an object");
        RecordedRow row{Config(parameters.size()), {}};
        for (std::size_t p = 0; p < parameters.size(); ++p) {
            auto v = entry.find(parameters[p].name);
            if (v == entry.end()) throw InputError(at + ": no value for '" + parameters[p].name + "'");
            auto value = importer::value_of(*v);
            auto index = value ? importer::index_of(parameters[p].values, *value) : std::nullopt;
            if (!index) throw InputError(at + ": " + parameters[p].name + "=" + v->dump() + " is not in tune_params");
            row.config[p] = static_cast<std::uint16_t>(*index);
        }
        Evaluation& e = row.eval;
        e.cost_seconds = (ms_field(entry, "compile_time") + ms_field(entry, "verification_time") +
                          ms_field(entry, "benchmark_time")) *
                         1e-3;
        auto error = entry.find("__error__");
        auto time = entry.find("time");
        if (error != entry.end() && error->is_string()) {
            e.reason = error->get<std::string>();
            e.status = status_of_error_class(e.reason);
        } else if (time == entry.end()) {
            throw InputError(at + ": no time");
        } else if (time->is_string()) {
            e.reason = time->get<std::string>();
            e.status = status_of_error_class(e.reason);
        } else if (!time->is_number() || !(time->get<double>() > 0) || !std::isfinite(time->get<double>())) {
            throw InputError(at + ": time must be a positive number, not " + time->dump());
        } else if (time->get<double>() >= kOldFailureTime) {
            e.status = EvalStatus::failed;
            e.reason = "time 1e20 (failure marker of older Kernel Tuner versions)";
        } else {
            e.seconds = time->get<double>() * 1e-3;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty()) throw InputError(where + ": the cache holds no configuration");

    set_recorded_rows(rs, std::move(parameters), std::move(rows), "entries");
    return rs;
}

}  // namespace memwall
