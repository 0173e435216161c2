#include "harness/case_protocol.hpp"

#include <limits>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/text_json.hpp"
#include "stats/bootstrap.hpp"

namespace memwall {

using nlohmann::json;

std::string encode_case_request(const PlannedCase& c, std::uint64_t seed, const MeasureOptions& opt) {
    json j{{"family", c.family->name},
           {"variant", c.variant->name},
           {"backend", std::string(to_string(c.variant->backend))},
           {"problem", c.problem.to_json()},
           {"config", c.config.to_json()},
           {"seed", seed},
           {"sampler", opt.sampler.to_json()},
           {"case_timeout", opt.case_timeout},
           {"metrics", opt.metrics}};
    if (opt.anchor) j["anchor"] = opt.anchor->to_json();
    return j.dump();
}

CaseRequest decode_case_request(const std::string& line, const Catalogue& catalogue) {
    CaseRequest r;
    json j;
    try {
        j = json::parse(line);
        const std::string backend_name = j.at("backend");
        const auto backend = backend_from(backend_name);
        if (!backend) throw InputError("unknown backend '" + backend_name + "'");
        const Family& f = catalogue.family(j.at("family").get<std::string>());
        r.planned = {&f, &catalogue.variant(f.name, j.at("variant").get<std::string>(), *backend),
                     Params::from_json(j.at("problem")), Params::from_json(j.at("config"))};
        r.seed = j.at("seed").get<std::uint64_t>();
        r.options.sampler = SamplerSettings::from_json(j.at("sampler"));
        r.options.case_timeout = j.at("case_timeout").get<double>();
        r.options.metrics = j.value("metrics", std::vector<std::string>{});
        if (j.contains("anchor")) r.options.anchor = Params::from_json(j.at("anchor"));
    } catch (const json::exception& e) {
        throw InputError(std::string("malformed case request: ") + e.what());
    }
    return r;
}

json counters_to_json(const std::vector<Counter>& counters) {
    json out = json::array();
    for (const Counter& c : counters) out.push_back({c.name, c.value, c.unit, std::string(to_string(c.source))});
    return out;
}

std::vector<Counter> counters_from_json(const json& j) {
    std::vector<Counter> out;
    for (const auto& c : j) {
        const auto source = counter_source_from(c.at(3).get<std::string>());
        if (!source) throw InputError("unknown counter source " + c.at(3).dump());
        // JSON has no NaN: a counter that was NaN comes back as null.
        const double value = c.at(1).is_null() ? std::numeric_limits<double>::quiet_NaN() : c.at(1).get<double>();
        out.push_back({c.at(0), value, c.at(2), *source});
    }
    return out;
}

std::string encode_case_result(const CaseRecord& r, double seconds) {
    return json{{"status", std::string(to_string(r.status))},
                {"message", text_to_json(r.message)},  // may quote a path of any bytes
                {"samples", r.samples},
                {"sampling_stop", r.sampling_stop},
                {"counters", counters_to_json(r.counters)},
                {"anchor_samples", r.anchor_samples},
                {"seconds", seconds}}
        .dump();
}

double decode_case_result(const std::string& text, CaseRecord& r) {
    try {
        const json j = json::parse(text);
        const auto status = case_status_from(j.at("status").get<std::string>());
        if (!status) throw InputError("unknown case status " + j.at("status").dump());
        r.status = *status;
        r.message = text_from_json(j.at("message")).value_or("");
        r.samples = j.at("samples").get<std::vector<std::vector<double>>>();
        r.sampling_stop = j.at("sampling_stop").get<std::string>();
        r.counters = counters_from_json(j.at("counters"));
        r.anchor_samples = j.value("anchor_samples", std::vector<double>{});
        if (!r.anchor_samples.empty() && (r.samples.size() != 1 || r.samples[0].size() != r.anchor_samples.size()))
            throw InputError("malformed case result: anchor samples do not pair with the samples");
        r.summary = r.samples.empty() ? Summary{} : summarize(pooled_samples(r.samples));
        return j.at("seconds").get<double>();
    } catch (const json::exception& e) {
        throw InputError(std::string("malformed case result: ") + e.what());
    }
}

}  // namespace memwall
