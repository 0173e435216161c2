// nvbench JSON (file version 1, nvbench's json_printer): {"meta": {...}, "devices": [{"id",
// "name", ...}], "benchmarks": [{"name", "axes", "states": [{"name", "device", "axis_values":
// [{"name", "type", "value"}], "summaries": [{"tag", "data": [{"name", "type", "value"}]}],
// "is_skipped", "skip_reason"}]}]}. Values are written as strings (int64 would lose digits as
// JSON numbers); numbers are accepted too. A state is a case of family `nvbench` on cuda, its
// variant the benchmark's name and its problem the state's axis values. nvbench keeps only
// summaries in its JSON, so the case's one sample is the cold GPU time's mean, and the message
// says over how many samples and with what relative spread it was taken.
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <variant>

#include "core/errors.hpp"
#include "results/import_formats.hpp"

namespace memwall::import_detail {

namespace {

using nlohmann::json;

const json& member(const json& obj, const char* key, json::value_t type, const std::string& where) {
    if (!obj.is_object() || !obj.contains(key) || obj.at(key).type() != type)
        throw InputError(where + " has no \"" + key + "\" of the nvbench layout");
    return obj.at(key);
}

// A named value's text ("value" as nvbench writes it: a string, or a number in older files).
std::string value_text(const json& v, const std::string& where) {
    if (!v.is_object() || !v.contains("value")) throw InputError(where + " has no \"value\"");
    const json& x = v.at("value");
    if (x.is_string()) return x.get<std::string>();
    if (x.is_number_integer()) return std::to_string(x.get<std::int64_t>());
    if (x.is_number()) return x.dump();
    throw InputError(where + ": \"value\" is neither a string nor a number");
}

// The value of the summary tagged `tag`, a number, if the state has it.
std::optional<Value> summary(const json& summaries, const std::string& tag, const std::string& where) {
    for (const json& s : summaries) {
        if (string_or(s, "tag", "") != tag) continue;
        const json& data = member(s, "data", json::value_t::array, where + " summary " + tag);
        for (const json& d : data) {
            if (string_or(d, "name", "") != "value") continue;
            Value v = value_from_text(value_text(d, where + " summary " + tag));
            if (std::holds_alternative<std::string>(v))
                throw InputError(where + " summary " + tag + ": value is not a number");
            return v;
        }
    }
    return std::nullopt;
}

double number(const Value& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    return std::get<double>(v);
}

std::string percent(double fraction) {
    std::ostringstream out;
    out << std::setprecision(3) << fraction * 100 << '%';
    return out.str();
}

}  // namespace

ImportedRun parse_nvbench(const json& doc, const std::string& source) {
    if (!doc.is_object() || !doc.contains("benchmarks") || !doc.at("benchmarks").is_array())
        throw InputError(source + ": not nvbench JSON (no \"benchmarks\" array)");
    std::map<std::int64_t, std::string> device_names;
    if (doc.contains("devices") && doc.at("devices").is_array())
        for (const json& d : doc.at("devices"))
            if (d.is_object() && d.contains("id") && d.at("id").is_number_integer())
                device_names[d.at("id").get<std::int64_t>()] = string_or(d, "name", "GPU " + d.at("id").dump());

    ImportedRun run;
    std::set<std::string> devices_used;
    std::set<CaseKey> keys;
    std::size_t b_index = 0;
    for (const json& bench : doc.at("benchmarks")) {
        const std::string bwhere = source + ": benchmarks[" + std::to_string(b_index++) + "]";
        const std::string name = member(bench, "name", json::value_t::string, bwhere).get<std::string>();
        const json& states = member(bench, "states", json::value_t::array, bwhere + " (" + name + ")");
        std::size_t s_index = 0;
        for (const json& st : states) {
            const std::string where = bwhere + " (" + name + ") states[" + std::to_string(s_index++) + "]";
            Params problem;
            if (st.is_object() && st.contains("axis_values")) {
                for (const json& a : member(st, "axis_values", json::value_t::array, where)) {
                    const std::string axis =
                        member(a, "name", json::value_t::string, where + " axis value").get<std::string>();
                    const std::string text = value_text(a, where + " axis " + axis);
                    problem.set(axis, string_or(a, "type", "") == "string" ? Value(text) : value_from_text(text));
                }
            }
            std::int64_t device = 0;
            if (st.is_object() && st.contains("device") && st.at("device").is_number_integer())
                device = st.at("device").get<std::int64_t>();
            const auto named = device_names.find(device);
            devices_used.insert(named != device_names.end() ? named->second : "GPU " + std::to_string(device));
            if (device_names.size() > 1) problem.set("device", device);
            CaseKey key{"nvbench", name, "cuda", problem.canonical(), "{}"};
            if (!keys.insert(key).second) throw InputError(where + " repeats the axis values of an earlier state");

            if (bool_or(st, "is_skipped", false)) {
                CaseRecord c = imported_case(std::move(key), {}, "nvbench");
                c.status = CaseStatus::skipped;
                c.message = "nvbench skipped it: " + string_or(st, "skip_reason", "no reason given");
                run.cases.push_back(std::move(c));
                continue;
            }
            const json& summaries = member(st, "summaries", json::value_t::array, where);
            std::optional<Value> mean = summary(summaries, "nv/cold/time/gpu/mean", where);
            std::string timer = "cold GPU time";
            if (!mean) {
                mean = summary(summaries, "nv/batch/time/gpu/mean", where);
                timer = "batch GPU time";
            }
            if (!mean || !(number(*mean) >= 0)) throw InputError(where + " has no GPU time (nv/cold/time/gpu/mean)");
            std::string origin = "nvbench: mean " + timer;
            if (const auto n = summary(summaries, "nv/cold/sample_size", where))
                origin += " of " + to_string(*n) + " samples";
            if (const auto rsd = summary(summaries, "nv/cold/time/gpu/stdev/relative", where))
                origin += ", relative stdev " + percent(number(*rsd));
            run.cases.push_back(imported_case(std::move(key), {{number(*mean)}}, origin));
        }
    }
    run.run.host = "unknown";
    for (const std::string& d : devices_used) run.run.device += (run.run.device.empty() ? "" : " + ") + d;
    run.run.backend = "cuda";
    run.run.tags = imported_tags(ImportFormat::nvbench, source);
    return run;
}

}  // namespace memwall::import_detail
