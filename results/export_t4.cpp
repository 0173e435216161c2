// A tuning session in the T4 results format (Kernel Tuner's kernel_tuner/schema/T4/1.0.0/
// results-schema.json): {"schema_version": "1.0.0", "results": [{"timestamp", "configuration",
// "objectives", "times": {"runtimes", ...}, "invalidity", "correctness", "measurements": [{"name",
// "value", "unit"}]}]}, where configuration, times, invalidity and correctness are required.
// Runtimes and the time are in milliseconds, as Kernel Tuner writes them.
#include <ostream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "results/export.hpp"
#include "results/tuning_store.hpp"

namespace memwall {

namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kT4Version = "1.0.0";

// T4's invalidity: correct, or why not (timeout, compile, runtime, correctness, constraints).
// memwall's tuner stores a wrong result and a timeout as `failed` with the reason's prefix.
std::string invalidity(const TrialRecord& t) {
    if (t.status == "ok") return "correct";
    if (t.status == "invalid") return "constraints";
    if (t.status == "compile_failed") return "compile";
    if (t.reason.rfind("wrong result", 0) == 0) return "correctness";
    if (t.reason.rfind("timeout", 0) == 0) return "timeout";
    return "runtime";
}

}  // namespace

void export_tuning_session_t4(const Store& store, std::int64_t session_id, std::ostream& out) {
    const auto session = tuning_session(store, session_id);
    if (!session) throw InputError(store.path() + ": no tuning session " + std::to_string(session_id));
    ojson results = ojson::array();
    for (const TrialRecord& t : trials(store, session_id)) {
        ojson configuration;
        try {
            configuration = ojson::parse(t.config);
        } catch (const ojson::parse_error&) {
            throw InputError(store.path() + ": trial " + std::to_string(t.index) + " of tuning session " +
                             std::to_string(session_id) + " has a configuration that is not JSON: " + t.config);
        }
        ojson runtimes = ojson::array();
        for (double s : t.samples) runtimes.push_back(s * 1e3);
        ojson measurements = ojson::array();
        if (t.seconds) measurements.push_back({{"name", "time"}, {"value", *t.seconds * 1e3}, {"unit", "ms"}});
        measurements.push_back(
            {{"name", "time_source"}, {"value", to_string(session->info.time_source)}, {"unit", ""}});
        measurements.push_back({{"name", "measurements"}, {"value", t.measurements}, {"unit", ""}});
        for (const Counter& c : t.counters)
            measurements.push_back({{"name", c.name + " (" + std::string(to_string(c.source)) + ")"},
                                    {"value", c.value},
                                    {"unit", c.unit}});
        ojson r{
            {"configuration", std::move(configuration)},
            {"objectives", ojson::array({"time"})},
            {"times", {{"runtimes", std::move(runtimes)}, {"benchmark", t.cost_seconds * 1e3}}},
            {"invalidity", invalidity(t)},
            {"correctness", t.status == "ok" ? 1 : 0},
            {"measurements", std::move(measurements)},
        };
        if (!t.reason.empty()) r["memwall_reason"] = t.reason;
        results.push_back(std::move(r));
    }
    const ojson doc{{"schema_version", kT4Version}, {"results", std::move(results)}};
    out << doc.dump(2, ' ', false, ojson::error_handler_t::replace) << '\n';
}

}  // namespace memwall
