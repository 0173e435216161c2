// KTT JSON output: {"Metadata": {..., "TimeUnit"}, "Results": [{Configuration: [{Name, Value}],
// Status, TotalDuration, TotalOverhead, ComputationResults: [{Duration, ProfilingData:
// {Counters: [{Name, Value}]}}]}]}. CUPTI counters ending in "sectors...sum" count 32-byte
// sectors; they are converted to bytes (and renamed "bytes") so every figure has one unit.
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_set>

#include "core/errors.hpp"
#include "metrics/levels.hpp"
#include "tuner/json_values.hpp"
#include "tuner/recorded_space.hpp"

namespace memwall {

namespace {

using nlohmann::json;

constexpr double kSectorBytes = 32;

double seconds_per_unit(const std::string& unit, const std::string& where) {
    if (unit == "Nanoseconds") return 1e-9;
    if (unit == "Microseconds") return 1e-6;
    if (unit == "Milliseconds") return 1e-3;
    if (unit == "Seconds") return 1.0;
    throw InputError(where + ": unknown Metadata.TimeUnit '" + unit + "'");
}

EvalStatus status_of(const std::string& s) {
    if (s == "Ok") return EvalStatus::ok;
    if (s == "CompilationFailed") return EvalStatus::compile_failed;
    if (s == "ComputationFailed") return EvalStatus::runtime_failed;
    return EvalStatus::failed;  // ValidationFailed and anything newer
}

bool is_sector_count(const std::string& name) {
    return name.find("sectors") != std::string::npos && name.ends_with(".sum");
}

std::string unit_of(const std::string& name) {
    if (name.find(".pct") != std::string::npos) return "%";
    if (name.ends_with(".ratio")) return "ratio";
    if (is_sector_count(name)) return "B";
    if (name.find("inst_executed") != std::string::npos) return "inst";
    if (name.find("requests") != std::string::npos) return "requests";
    if (name.find("wavefronts") != std::string::npos) return "wavefronts";
    if (name.find("cycles") != std::string::npos) return "cycles";
    return "";
}

double number_at(const json& obj, const char* name, const std::string& where) {
    auto it = obj.find(name);
    if (it == obj.end() || !it->is_number()) throw InputError(where + ": no number \"" + name + "\"");
    return it->get<double>();
}

// The counters of one result: sums add over the kernel functions of a multi-kernel
// computation, other metrics (percentages, ratios) are averaged weighted by duration.
std::vector<Counter> counters_of(const json& computations, const std::string& where) {
    struct Acc {
        double sum = 0, weighted = 0, weight = 0;
    };
    std::map<std::string, Acc> acc;
    std::vector<std::string> order;
    for (const json& c : computations) {
        if (!c.is_object()) throw InputError(where + ": a ComputationResults item is not an object");
        const double duration = importer::number_or(c, "Duration", 0.0, where);
        auto profiling = c.find("ProfilingData");
        if (profiling == c.end() || !profiling->contains("Counters")) continue;
        for (const json& k : (*profiling)["Counters"]) {
            if (!k.is_object() || !k.contains("Name") || !k["Name"].is_string() || !k.contains("Value") ||
                !k["Value"].is_number())
                throw InputError(where + ": a counter lacks a Name or a numeric Value");
            const std::string name = k["Name"].get<std::string>();
            const double v = k["Value"].get<double>();
            auto [it, added] = acc.try_emplace(name);
            if (added) order.push_back(name);
            it->second.sum += v;
            it->second.weighted += v * duration;
            it->second.weight += duration;
        }
    }
    std::vector<Counter> out;
    for (const std::string& name : order) {
        const Acc& a = acc[name];
        Counter c;
        c.source = CounterSource::cupti;
        c.unit = unit_of(name);
        if (name.ends_with(".sum")) {
            c.value = a.sum;
        } else {
            c.value = a.weight > 0 ? a.weighted / a.weight : a.sum / static_cast<double>(computations.size());
        }
        c.name = name;
        if (is_sector_count(name)) {
            c.value *= kSectorBytes;
            c.name.replace(c.name.find("sectors"), 7, "bytes");
        }
        out.push_back(std::move(c));
    }
    // DRAM and L2 traffic under memwall's level names too, by the one counter-to-level table, so
    // the guided strategy finds it whatever the recording's metric names.
    std::vector<Counter> raw;
    for (const std::string& name : order) raw.push_back({name, acc[name].sum, "", CounterSource::cupti});
    for (const LevelBytes& l : bytes_by_level(raw))
        if (l.level == "dram" || l.level == "l2")
            out.push_back({counters::bytes_at(l.level), l.bytes, "B", CounterSource::cupti});
    // Each value read is finite, but a sum, a duration-weighted mean or sectors times 32 bytes
    // can pass the largest double: a record no session can store.
    for (const Counter& c : out)
        if (!std::isfinite(c.value))
            throw InputError(where + ": counter " + c.name +
                             " passes the largest number (1.8e308) once summed or scaled to bytes");
    return out;
}

}  // namespace

static RecordedSpace parse_ktt(std::string_view text, std::string_view origin) {
    const std::string where(origin);
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError(where + ": malformed JSON: " + importer::short_message(e));
    }
    if (!doc.is_object() || !doc.contains("Metadata") || !doc.contains("Results") || !doc["Results"].is_array())
        throw InputError(where + ": not a KTT output file (no Metadata and Results list)");
    const json& meta = doc["Metadata"];
    if (!meta.is_object() || !meta.contains("TimeUnit") || !meta["TimeUnit"].is_string())
        throw InputError(where + ": KTT Metadata has no TimeUnit");
    const double unit = seconds_per_unit(meta["TimeUnit"].get<std::string>(), where);

    RecordedSpace rs;
    rs.origin = where;
    rs.format = "ktt";
    rs.device = importer::string_or(meta, "Device", "", where + ": Metadata");

    const json& results = doc["Results"];
    if (results.empty()) throw InputError(where + ": the Results list is empty");
    std::vector<std::string> names;
    std::vector<std::vector<Value>> seen;  // per parameter, values in order of appearance
    struct Row {
        std::vector<Value> values;
        Evaluation eval;
    };
    std::vector<Row> rows;
    rows.reserve(results.size());
    for (std::size_t r = 0; r < results.size(); ++r) {
        const json& res = results[r];
        const std::string at = where + ": result " + std::to_string(r);
        if (!res.is_object() || !res.contains("Configuration") || !res["Configuration"].is_array())
            throw InputError(at + " has no Configuration list");
        const json& conf = res["Configuration"];
        if (r == 0) {
            for (const json& p : conf) {
                if (!p.is_object() || !p.contains("Name") || !p["Name"].is_string())
                    throw InputError(at + ": a parameter has no Name");
                names.push_back(p["Name"].get<std::string>());
            }
            seen.resize(names.size());
            if (rs.kernel.empty()) rs.kernel = importer::string_or(res, "KernelName", "", at);
        }
        if (conf.size() != names.size()) throw InputError(at + ": its parameters differ from the first result's");
        Row row;
        for (std::size_t p = 0; p < names.size(); ++p) {
            const json& item = conf[p];
            if (!item.is_object() || importer::string_or(item, "Name", "", at) != names[p] || !item.contains("Value"))
                throw InputError(at + ": parameter " + std::to_string(p) + " should be '" + names[p] +
                                 "' with a Value");
            auto v = importer::value_of(item["Value"]);
            if (!v) throw InputError(at + ": " + names[p] + " has value " + item["Value"].dump());
            if (!importer::index_of(seen[p], *v)) seen[p].push_back(*v);
            row.values.push_back(std::move(*v));
        }
        if (!res.contains("Status") || !res["Status"].is_string()) throw InputError(at + " has no Status");
        const std::string status = res["Status"].get<std::string>();
        Evaluation& e = row.eval;
        e.status = status_of(status);
        const double duration = number_at(res, "TotalDuration", at);
        e.cost_seconds = (duration + importer::number_or(res, "TotalOverhead", 0.0, at)) * unit;
        if (e.ok()) {
            if (!(duration > 0) || !std::isfinite(duration))
                throw InputError(at + ": status Ok with TotalDuration " + res["TotalDuration"].dump());
            e.seconds = duration * unit;
            if (auto c = res.find("ComputationResults"); c != res.end() && c->is_array())
                e.counters = counters_of(*c, at);
        } else {
            e.reason = status;
        }
        rows.push_back(std::move(row));
    }

    std::vector<Parameter> parameters;
    for (std::size_t p = 0; p < names.size(); ++p) {
        std::sort(seen[p].begin(), seen[p].end(), importer::value_less);
        parameters.push_back({names[p], seen[p]});
    }
    std::vector<Config> configs;
    std::unordered_set<Config, ConfigHash> kept;
    std::size_t repeats = 0;
    for (Row& row : rows) {
        Config c(names.size());
        for (std::size_t p = 0; p < names.size(); ++p)
            c[p] = static_cast<std::uint16_t>(*importer::index_of(parameters[p].values, row.values[p]));
        if (!kept.insert(c).second) {
            ++repeats;
            continue;
        }
        configs.push_back(std::move(c));
        rs.results.push_back(std::move(row.eval));
    }
    if (repeats) rs.notes.push_back(std::to_string(repeats) + " results repeat a configuration; kept the first");
    rs.space = TuningSpace(std::move(parameters), std::move(configs));
    return rs;
}

RecordedSpace parse_ktt_json(std::string_view text, std::string_view origin) {
    try {
        return parse_ktt(text, origin);
    } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
        throw InputError(std::string(origin) + ": unexpected KTT JSON: " + importer::short_message(e));
    }
}

}  // namespace memwall
