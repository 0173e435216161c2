#include "cli/compare_output.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/table.hpp"
#include "core/errors.hpp"
#include "results/report.hpp"

namespace memwall::cli {

namespace {

const char* colour_of(Verdict v) {
    switch (v) {
        case Verdict::slower:
        case Verdict::failed: return "\033[1;31m";
        case Verdict::faster: return "\033[32m";
        case Verdict::unsure: return "\033[33m";
        case Verdict::same: return "";
    }
    return "";
}

std::string side_text(const SideStats& s, bool normalised) {
    if (s.n == 0) return std::string(to_string(s.status));
    std::string t = format_duration(s.median);
    if (normalised && s.percent_of_roof > 0) t += " (" + format_fixed(s.percent_of_roof, 1) + "% roof)";
    return t;
}

std::string case_text(const CaseKey& k) {
    std::string t = case_label(k) + " " + params_label(k.problem);
    if (params_label(k.config) != "-") t += " " + params_label(k.config);
    return t;
}

}  // namespace

void print_comparison(std::ostream& os, const Comparison& c, bool colour) {
    os << "base       " << run_label(c.base) << ", " << c.base.started_at << "\n"
       << "candidate  " << run_label(c.candidate) << ", " << c.candidate.started_at << "\n\n";
    const auto order = by_severity(c);
    if (!order.empty()) {
        Table t({"case", "problem", "config", "base", "candidate", "change", confidence_label(c.options.alpha), "p",
                 "verdict"},
                {false, false, false, true, true, true, false, true, false});
        for (const CaseComparison* x : order) {
            const bool measured = x->ci.hi > 0;
            t.add({case_label(x->key), params_label(x->key.problem), params_label(x->key.config),
                   side_text(x->base, c.normalised), side_text(x->candidate, c.normalised),
                   measured ? format_change(x->ratio) : "", measured ? format_interval(x->ci) : "",
                   x->basis.empty() ? "" : format_p_value(x->p_value), std::string(to_string(x->verdict))});
        }
        std::ostringstream table;
        t.print(table);
        // The verdict ends each row: colour it after the table is laid out, so escape codes
        // do not count towards the column widths.
        std::istringstream lines(table.str());
        std::size_t row = 0;
        for (std::string line; std::getline(lines, line); ++row) {
            if (colour && row >= 2) {
                const CaseComparison* x = order[row - 2];
                const std::string v(to_string(x->verdict));
                const char* code = colour_of(x->verdict);
                if (*code) line = line.substr(0, line.size() - v.size()) + code + v + "\033[0m";
            }
            os << line << "\n";
        }
        bool header = false;
        for (const CaseComparison* x : order) {
            if (x->verdict == Verdict::same) continue;
            if (!header) os << "\nwhy:\n";
            header = true;
            os << "  " << to_string(x->verdict) << "  " << case_text(x->key) << ": " << x->reason << "\n";
        }
    } else {
        os << "no case is in both runs\n";
    }
    if (c.geomean.cases > 0)
        os << "\ngeometric mean over " << c.geomean.cases << " cases: " << format_change(c.geomean.ratio) << " "
           << format_interval(c.geomean.ci) << "\n";
    if (!c.only_in_base.empty()) {
        os << "\nonly in the base run (" << c.only_in_base.size() << "):\n";
        for (const auto& k : c.only_in_base) os << "  " << case_text(k) << "\n";
    }
    if (!c.only_in_candidate.empty()) {
        os << "\nonly in the candidate run (" << c.only_in_candidate.size() << "):\n";
        for (const auto& k : c.only_in_candidate) os << "  " << case_text(k) << "\n";
    }
    os << "\n"
       << (c.regression() ? "regression" : "no regression") << ": " << verdict_counts(c) << "\n"
       << "rule: " << verdict_rule(c.options, c.paired) << "\n";
}

void write_comparison(std::ostream& os, const Comparison& c, const std::string& format) {
    if (format == "markdown") {
        write_markdown(c, os);
    } else if (format == "json") {
        write_json(c, os);
    } else if (format == "junit") {
        write_junit(c, os);
    } else {
        const bool colour = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
        print_comparison(os, c, colour);
    }
}

void write_reports(const Comparison& c, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw UsageError("cannot create the report directory " + dir + ": " + ec.message());
    const std::pair<const char*, void (*)(const Comparison&, std::ostream&)> files[] = {
        {"report.md", write_markdown}, {"report.json", write_json}, {"report.junit.xml", write_junit}};
    for (const auto& [name, write] : files) {
        const std::string path = (std::filesystem::path(dir) / name).string();
        std::ofstream out(path);
        if (out) write(c, out);
        if (!out) throw UsageError("cannot write " + path);
    }
}

void print_warnings(const Comparison& c) {
    for (const auto& w : c.warnings) std::cerr << "memwall: warning: " << w << "\n";
}

}  // namespace memwall::cli
