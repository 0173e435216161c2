#include "tuner/stored_session.hpp"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "results/tuning_store.hpp"
#include "tuner/json_values.hpp"

namespace memwall {

std::optional<SessionReference> session_reference(std::string_view spec) {
    const auto hash = spec.rfind('#');
    if (hash == std::string_view::npos || hash == 0 || hash + 1 == spec.size()) return std::nullopt;
    std::int64_t id = 0;
    const char* first = spec.data() + hash + 1;
    const char* last = spec.data() + spec.size();
    const auto [end, ec] = std::from_chars(first, last, id);
    if (ec != std::errc{} || end != last || id <= 0) return std::nullopt;
    return SessionReference{std::string(spec.substr(0, hash)), id};
}

RecordedSpace recorded_space_from_session(const Store& store, std::int64_t session_id, std::string origin) {
    const auto summary = tuning_session(store, session_id);
    if (!summary) throw InputError(origin + ": no tuning session " + std::to_string(session_id) + " in the database");
    const std::vector<TrialRecord> stored = trials(store, session_id);
    if (stored.empty()) throw InputError(origin + ": the session holds no trial");

    RecordedSpace rs;
    rs.origin = std::move(origin);
    rs.format = "memwall";
    rs.device = summary->info.device;
    // A replay's session names the recording's kernel as its variant, with no family.
    rs.kernel =
        summary->info.family.empty() ? summary->info.variant : summary->info.family + "/" + summary->info.variant;

    // Each trial's configuration, by name, and the values each name took.
    std::vector<std::vector<Value>> configs;  // [trial][parameter]
    std::vector<Parameter> parameters;
    for (const TrialRecord& t : stored) {
        const std::string at = rs.origin + ": trial " + std::to_string(t.index);
        const nlohmann::json c = nlohmann::json::parse(t.config, nullptr, false);
        if (!c.is_object() || c.empty()) throw InputError(at + ": the configuration is not a JSON object of values");
        if (configs.empty())
            for (const auto& [name, v] : c.items()) parameters.push_back({name, {}});
        if (c.size() != parameters.size()) throw InputError(at + ": its parameters differ from the first trial's");
        std::vector<Value>& values = configs.emplace_back();
        for (Parameter& p : parameters) {
            const auto v = c.find(p.name);
            auto value = v == c.end() ? std::nullopt : importer::value_of(*v);
            if (!value) throw InputError(at + ": no number or string for '" + p.name + "'");
            if (!importer::index_of(p.values, *value)) p.values.push_back(*value);
            values.push_back(std::move(*value));
        }
    }
    for (Parameter& p : parameters) std::sort(p.values.begin(), p.values.end(), importer::value_less);

    std::vector<RecordedRow> rows;
    for (std::size_t i = 0; i < stored.size(); ++i) {
        const TrialRecord& t = stored[i];
        RecordedRow row{Config(parameters.size()), {}};
        for (std::size_t p = 0; p < parameters.size(); ++p)
            row.config[p] = static_cast<std::uint16_t>(*importer::index_of(parameters[p].values, configs[i][p]));
        const auto status = eval_status_from(t.status);
        if (!status)
            throw InputError(rs.origin + ": trial " + std::to_string(t.index) + ": unknown status '" + t.status + "'");
        Evaluation& e = row.eval;
        e.status = *status;
        e.reason = t.reason;
        if (e.ok()) {
            if (!t.seconds || !(*t.seconds > 0))
                throw InputError(rs.origin + ": trial " + std::to_string(t.index) + " is ok but has no positive time");
            e.seconds = *t.seconds;
        }
        e.samples = t.samples;
        e.counters = t.counters;
        e.cost_seconds = t.cost_seconds;
        rows.push_back(std::move(row));
    }
    // A session measures each configuration once and folds its confirmations into that trial,
    // so a repeat is a damaged or hand-made database: its first trial counts.
    set_recorded_rows(rs, std::move(parameters), std::move(rows), "trials");
    return rs;
}

}  // namespace memwall
