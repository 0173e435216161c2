// The JSON report: everything the comparison holds except the bootstrap replicates.
#include <ostream>

#include <nlohmann/json.hpp>

#include "results/report.hpp"
#include "results/report_json.hpp"

namespace memwall {

using nlohmann::json;

json params_json(const std::string& canonical) { return canonical.empty() ? json::object() : json::parse(canonical); }

json key_json(const CaseKey& k) {
    return {{"family", k.family},
            {"variant", k.variant},
            {"backend", k.backend},
            {"problem", params_json(k.problem)},
            {"config", params_json(k.config)}};
}

json interval_json(Interval i) { return json::array({i.lo, i.hi}); }

namespace {

json side_json(const RunSide& r) {
    return {{"run", r.id},        {"database", r.database}, {"started_at", r.started_at},     {"host", r.host},
            {"device", r.device}, {"backend", r.backend},   {"git_revision", r.git_revision}, {"tags", r.tags}};
}

json stats_json(const SideStats& s, bool normalised) {
    json j = {
        {"status", std::string(to_string(s.status))}, {"median", s.median}, {"n", s.n}, {"repetitions", s.repetitions}};
    if (normalised) j["percent_of_roof"] = s.percent_of_roof;
    if (!s.message.empty()) j["message"] = s.message;
    return j;
}

}  // namespace

void write_json(const Comparison& c, std::ostream& os) {
    json summary = {{"cases", c.cases.size()},
                    {"only_in_base", c.only_in_base.size()},
                    {"only_in_candidate", c.only_in_candidate.size()},
                    {"regression", c.regression()}};
    for (Verdict v : {Verdict::same, Verdict::faster, Verdict::slower, Verdict::unsure, Verdict::failed})
        summary[std::string(to_string(v))] = c.count(v);
    summary["geomean"] =
        c.geomean.cases == 0
            ? json(nullptr)
            : json{{"cases", c.geomean.cases}, {"ratio", c.geomean.ratio}, {"ci", interval_json(c.geomean.ci)}};

    json cases = json::array();
    for (const auto& x : c.cases) {
        json j = key_json(x.key);
        j["verdict"] = std::string(to_string(x.verdict));
        j["reason"] = x.reason;
        const bool measured = x.ci.hi > 0;
        j["ratio"] = measured ? json(x.ratio) : json(nullptr);
        j["ci"] = measured ? interval_json(x.ci) : json(nullptr);
        j["p_value"] = x.basis.empty() ? json(nullptr) : json(x.p_value);
        j["basis"] = x.basis.empty() ? json(nullptr) : json(x.basis);
        j["base"] = stats_json(x.base, c.normalised);
        j["candidate"] = stats_json(x.candidate, c.normalised);
        cases.push_back(std::move(j));
    }
    json only_base = json::array(), only_cand = json::array();
    for (const auto& k : c.only_in_base) only_base.push_back(key_json(k));
    for (const auto& k : c.only_in_candidate) only_cand.push_back(key_json(k));

    const json doc = {{"format", "memwall-compare/1"},
                      {"base", side_json(c.base)},
                      {"candidate", side_json(c.candidate)},
                      {"options",
                       {{"threshold", c.options.threshold},
                        {"alpha", c.options.alpha},
                        {"min_samples", c.options.min_samples},
                        {"min_repetitions", c.options.min_repetitions},
                        {"resamples", c.options.resamples},
                        {"seed", c.options.seed},
                        {"cross_device", c.options.cross_device}}},
                      {"rule", verdict_rule(c.options, c.paired)},
                      {"normalised", c.normalised},
                      {"paired", c.paired},
                      {"summary", summary},
                      {"cases", cases},
                      {"only_in_base", only_base},
                      {"only_in_candidate", only_cand},
                      {"warnings", c.warnings}};
    // Stored text need not be UTF-8 (a tag typed in another encoding): such bytes become U+FFFD.
    os << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace memwall
