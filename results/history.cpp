#include "results/history.hpp"

#include <algorithm>

#include "results/report.hpp"
#include "results/report_json.hpp"
#include "stats/bootstrap.hpp"

namespace memwall {

namespace {

bool has_tags(const RunInfo& r, const std::map<std::string, std::string>& tags) {
    for (const auto& [k, v] : tags) {
        auto it = r.tags.find(k);
        if (it == r.tags.end() || it->second != v) return false;
    }
    return true;
}

bool matches(const CaseKey& k, const HistoryFilter& f) {
    auto eq = [](const std::string& want, const std::string& have) { return want.empty() || want == have; };
    auto has = [](const std::string& want, const std::string& label) {
        return want.empty() || label.find(want) != std::string::npos;
    };
    return eq(f.family, k.family) && eq(f.variant, k.variant) && eq(f.backend, k.backend) &&
           has(f.problem, params_label(k.problem)) && has(f.config, params_label(k.config));
}

std::string tag_or(const RunInfo& r, const std::string& key, const std::string& fallback) {
    auto it = r.tags.find(key);
    return it == r.tags.end() ? fallback : it->second;
}

}  // namespace

std::vector<CaseHistory> load_history(const Store& store, const HistoryFilter& filter, const ChangeOptions& opt) {
    std::vector<RunInfo> runs = store.runs();
    std::erase_if(runs, [&](const RunInfo& r) { return !has_tags(r, filter.tags); });
    if (filter.last > 0 && runs.size() > filter.last)
        runs.erase(runs.begin(), runs.end() - static_cast<std::ptrdiff_t>(filter.last));

    std::map<CaseKey, CaseHistory> by_key;
    for (const RunInfo& r : runs) {
        for (const CaseRecord& c : store.cases(r.id, true)) {
            if (!ran(c.status) || c.summary.n == 0 || !matches(c.key, filter)) continue;
            const std::vector<double> all = pooled_samples(c.samples);
            CaseHistory& h = by_key[c.key];
            h.key = c.key;
            h.points.push_back({r.id, r.started_at, tag_or(r, "branch", ""), tag_or(r, "commit", r.git_revision),
                                c.summary.median, median_ci(all, 0.95), c.summary.n});
        }
    }
    std::vector<CaseHistory> out;
    for (auto& [k, h] : by_key) {
        std::vector<double> medians, errors;
        for (const auto& p : h.points) {
            medians.push_back(p.median);
            errors.push_back(p.median > 0 ? (p.ci.hi - p.ci.lo) / 2 / 1.96 / p.median : 0);
        }
        h.changes = detect_change_points(medians, errors, opt);
        out.push_back(std::move(h));
    }
    return out;
}

void write_history_json(const std::vector<CaseHistory>& histories, const std::string& database,
                        const HistoryFilter& filter, const ChangeOptions& opt, std::ostream& os) {
    using nlohmann::json;
    json cases = json::array();
    for (const CaseHistory& h : histories) {
        json points = json::array();
        for (const HistoryPoint& p : h.points)
            points.push_back({{"run", p.run_id},
                              {"started_at", p.started_at},
                              {"branch", p.branch},
                              {"commit", p.commit},
                              {"median", p.median},
                              {"ci", interval_json(p.ci)},
                              {"n", p.n}});
        json changes = json::array();
        for (const ChangePoint& cp : h.changes)
            changes.push_back({{"run", h.points.at(cp.index).run_id},
                               {"index", cp.index},
                               {"direction", cp.after > cp.before ? "slower" : "faster"},
                               {"before", cp.before},
                               {"after", cp.after},
                               {"ratio", cp.after / cp.before},
                               {"score", cp.score}});
        json c = key_json(h.key);
        c["points"] = std::move(points);
        c["change_points"] = std::move(changes);
        cases.push_back(std::move(c));
    }
    const json doc = {
        {"format", "memwall-history/1"},
        {"database", database},
        {"filter",
         {{"family", filter.family},
          {"variant", filter.variant},
          {"backend", filter.backend},
          {"problem", filter.problem},
          {"config", filter.config},
          {"tags", filter.tags},
          {"last", filter.last}}},
        {"rule", {{"threshold", opt.threshold}, {"min_score", opt.min_score}, {"min_segment", opt.min_segment}}},
        {"cases", cases}};
    // Stored text need not be UTF-8 (a tag typed in another encoding): such bytes become U+FFFD.
    os << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace memwall
