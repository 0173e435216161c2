#include <cstdio>
#include <iostream>

#include "cli/app.hpp"
#include "cli/number_checks.hpp"
#include "cli/table.hpp"
#include "core/errors.hpp"
#include "results/history.hpp"
#include "results/report.hpp"

namespace memwall::cli {

namespace {

struct HistoryArgs {
    HistoryFilter filter;
    std::vector<std::string> tags;
    ChangeOptions change;
    std::string format = "console";
};

void print_history(std::ostream& os, const CaseHistory& h) {
    os << case_label(h.key) << "  " << params_label(h.key.problem);
    if (params_label(h.key.config) != "-") os << "  " << params_label(h.key.config);
    os << "\n";
    Table t({"run", "started", "branch", "commit", "median", "95% CI", "n", "change point"},
            {true, false, false, false, true, true, true, false});
    std::size_t next = 0;
    for (std::size_t i = 0; i < h.points.size(); ++i) {
        const HistoryPoint& p = h.points[i];
        std::string step;
        if (next < h.changes.size() && h.changes[next].index == i) {
            const ChangePoint& cp = h.changes[next++];
            step = std::string(cp.after > cp.before ? "slower " : "faster ") + format_change(cp.after / cp.before) +
                   " (" + format_fixed(cp.score, 1) + " x noise)";
        }
        const double half = p.median > 0 ? (p.ci.hi - p.ci.lo) / 2 / p.median : 0;
        t.add({std::to_string(p.run_id), p.started_at, p.branch, p.commit.substr(0, 12), format_duration(p.median),
               "±" + format_fixed(half * 100, 1) + "%", std::to_string(p.n), step});
    }
    t.print(os);
}

}  // namespace

void add_history_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("history",
                                   "show cases' medians across runs (with tags branch and commit) and flag "
                                   "change points: steps larger than the run-to-run noise");
    auto a = std::make_shared<HistoryArgs>();
    cmd->add_option("--family,-f", a->filter.family, "only this family");
    cmd->add_option("--variant,-v", a->filter.variant, "only this variant");
    cmd->add_option("--backend,-b", a->filter.backend, "only this backend");
    cmd->add_option("--problem", a->filter.problem, "only problems whose label contains this (e.g. seq_q=1024)");
    cmd->add_option("--config", a->filter.config, "only configurations whose label contains this (e.g. Br=32)");
    cmd->add_option("--tag", a->tags, "only runs carrying this tag key=value (e.g. branch=main); repeatable");
    cmd->add_option("--last", a->filter.last, "only the newest N runs (after the tag filter)")->check(whole_number());
    cmd->add_option("--threshold", a->change.threshold, "smallest step flagged, as a fraction (default 0.05)");
    cmd->add_option("--format", a->format, "console or json (default: console)")
        ->check(CLI::IsMember({"console", "json"}));
    cmd->callback([a, &ctx] {
        if (!(a->change.threshold > 0 && a->change.threshold < 1))
            throw UsageError("--threshold must be in (0, 1), e.g. 0.05 for 5%");
        for (const auto& t : a->tags) {
            const auto eq = t.find('=');
            if (eq == std::string::npos || eq == 0) throw UsageError("--tag '" + t + "': expected key=value");
            a->filter.tags[t.substr(0, eq)] = t.substr(eq + 1);
        }
        const Store store = Store::open(ctx.db_path, Store::Mode::read_only);
        const auto histories = load_history(store, a->filter, a->change);
        if (a->format == "json") {
            write_history_json(histories, ctx.db_path, a->filter, a->change, std::cout);
            return;
        }
        if (histories.empty()) {
            std::cout << "no timed case in " << ctx.db_path << " matches\n";
            return;
        }
        std::size_t changes = 0;
        for (std::size_t i = 0; i < histories.size(); ++i) {
            if (i > 0) std::cout << "\n";
            print_history(std::cout, histories[i]);
            changes += histories[i].changes.size();
        }
        char rule[160];
        std::snprintf(rule, sizeof rule, "a step of at least %g%% and %g times its standard error",
                      a->change.threshold * 100, a->change.min_score);
        std::cout << "\n"
                  << histories.size() << " case(s), " << changes << " change point(s): " << rule
                  << " (run-to-run scatter and each run's own noise)\n";
    });
}

}  // namespace memwall::cli
