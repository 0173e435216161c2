// The Markdown report: a summary line, the cases worst first, unmatched cases and warnings,
// sized for a pull-request comment.
#include <cstdio>
#include <ostream>

#include "results/report.hpp"

namespace memwall {

namespace {

// A table cell: '|' would end the cell, a newline the row, and '<' start an HTML tag that
// GitHub hides.
std::string cell(const std::string& s) {
    std::string out;
    for (char ch : s) {
        if (ch == '|')
            out += "\\|";
        else if (ch == '<')
            out += "&lt;";
        else if (ch == '>')
            out += "&gt;";
        else if (ch == '\n' || ch == '\r')
            out += ' ';
        else
            out += ch;
    }
    return out;
}

std::string side_cell(const SideStats& s, bool normalised) {
    if (s.n == 0) return std::string(to_string(s.status));
    std::string out = format_duration(s.median);
    if (normalised && s.percent_of_roof > 0) {
        char buf[48];
        std::snprintf(buf, sizeof buf, " (%.1f%% of roof)", s.percent_of_roof);
        out += buf;
    }
    return out;
}

void list_keys(std::ostream& os, const std::string& title, const std::vector<CaseKey>& keys) {
    if (keys.empty()) return;
    os << "\n**" << title << " (" << keys.size() << "):**\n\n";
    for (const auto& k : keys) {
        os << "- `" << case_label(k) << "` " << cell(params_label(k.problem));
        if (params_label(k.config) != "-") os << " " << cell(params_label(k.config));
        os << "\n";
    }
}

}  // namespace

void write_markdown(const Comparison& c, std::ostream& os) {
    os << "## memwall compare: " << (c.regression() ? "regression" : "no regression") << " (" << verdict_counts(c)
       << ")\n\n";
    os << "- **Base:** " << run_label(c.base) << ", " << c.base.started_at << "\n";
    os << "- **Candidate:** " << run_label(c.candidate) << ", " << c.candidate.started_at << "\n";
    if (c.geomean.cases > 0)
        os << "- **Geometric mean** of the ratios over " << c.geomean.cases
           << " cases: " << format_change(c.geomean.ratio) << " " << format_interval(c.geomean.ci) << "\n";
    for (const auto& w : c.warnings) os << "\n> **Warning:** " << cell(w) << "\n";

    if (!c.cases.empty()) {
        os << "\n| verdict | case | problem | config | base | candidate | change | "
           << confidence_label(c.options.alpha) << " | p | why |\n|---|---|---|---|--:|--:|--:|---|--:|---|\n";
        for (const CaseComparison* x : by_severity(c)) {
            const bool measured = x->ci.hi > 0;
            const bool flagged = x->verdict == Verdict::slower || x->verdict == Verdict::failed;
            const std::string v(to_string(x->verdict));
            os << "| " << (flagged ? "**" + v + "**" : v) << " | `" << case_label(x->key) << "` | "
               << cell(params_label(x->key.problem)) << " | " << cell(params_label(x->key.config)) << " | "
               << side_cell(x->base, c.normalised) << " | " << side_cell(x->candidate, c.normalised) << " | "
               << (measured ? format_change(x->ratio) : "") << " | " << (measured ? format_interval(x->ci) : "")
               << " | " << (x->basis.empty() ? "" : format_p_value(x->p_value)) << " | " << cell(x->reason) << " |\n";
        }
    }
    list_keys(os, "Only in the base run", c.only_in_base);
    list_keys(os, "Only in the candidate run", c.only_in_candidate);
    os << "\n<sub>" << verdict_rule(c.options, c.paired) << " Change: candidate median / base median - 1"
       << (c.normalised ? ", each normalised by its run's bounding roof" : "") << ".</sub>\n";
}

}  // namespace memwall
