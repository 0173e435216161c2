// The formatting every comparison report shares.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/params.hpp"
#include "results/report.hpp"

namespace memwall {

std::string case_label(const CaseKey& k) { return k.family + "/" + k.variant + "/" + k.backend; }

std::string params_label(const std::string& canonical) {
    if (canonical.empty() || canonical == "{}") return "-";
    return Params::from_json(nlohmann::json::parse(canonical)).label();
}

std::string format_duration(double s) {
    char buf[64];
    if (s < 1e-6) {
        std::snprintf(buf, sizeof buf, "%.3g ns", s * 1e9);
    } else if (s < 1e-3) {
        std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    } else if (s < 1) {
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    } else {
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    }
    return buf;
}

std::string format_interval(Interval ci) { return "[" + format_change(ci.lo) + ", " + format_change(ci.hi) + "]"; }

std::string run_label(const RunSide& r) {
    std::string s = "run " + std::to_string(r.id) + " of " + r.database;
    std::string tags;
    for (const auto& [k, v] : r.tags) tags += (tags.empty() ? "" : ", ") + k + "=" + v;
    if (!tags.empty()) s += " (" + tags + ")";
    return s;
}

std::string verdict_rule(const CompareOptions& o, bool paired) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "SLOWER or FASTER when the %g%% confidence interval of the ratio of medians lies beyond ±%g%% "
                  "and the %s p < %g; SAME when the interval lies within ±%g%%; otherwise UNSURE.%s",
                  (1 - o.alpha) * 100, o.threshold * 100, paired ? "Wilcoxon signed-rank" : "Mann-Whitney", o.alpha,
                  o.threshold * 100,
                  paired ? " The runs were measured together: repetitions are compared pair by pair." : "");
    return buf;
}

std::string_view rank_test_name(const std::string& basis) {
    return basis == "paired repetitions" ? "Wilcoxon signed-rank" : "Mann-Whitney";
}

namespace {
constexpr Verdict kSeverityOrder[] = {Verdict::failed, Verdict::slower, Verdict::unsure, Verdict::faster,
                                      Verdict::same};
}  // namespace

std::vector<const CaseComparison*> by_severity(const Comparison& c) {
    std::vector<const CaseComparison*> out;
    for (Verdict v : kSeverityOrder)
        for (const auto& x : c.cases)
            if (x.verdict == v) out.push_back(&x);
    return out;
}

std::string verdict_counts(const Comparison& c) {
    std::string out;
    for (Verdict v : kSeverityOrder)
        if (const std::size_t n = c.count(v))
            out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(to_string(v));
    return out.empty() ? "no cases" : out;
}

}  // namespace memwall
