#include "cli/compare_output.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/table.hpp"
#include "core/errors.hpp"
#include "core/output_file.hpp"
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
    if (ec) throw EnvironmentError("cannot create the report directory " + dir + ": " + ec.message());
    const std::pair<const char*, void (*)(const Comparison&, std::ostream&)> files[] = {
        {"report.md", write_markdown}, {"report.json", write_json}, {"report.junit.xml", write_junit}};
    const auto path = [&dir](const char* name) { return (std::filesystem::path(dir) / name).string(); };
    for (const auto& file : files)
        for (const RunSide* side : {&c.base, &c.candidate})
            refuse_overwriting(path(file.first), Store::files(side->database), "the database " + side->database);
    for (const auto& [name, write] : files) {
        OutputFile out(path(name));
        write(c, out.stream());
        out.commit();
    }
}

void refuse_empty(const Comparison& c, bool allow_empty) {
    if (allow_empty || !c.cases.empty()) return;
    const auto name = [](const RunSide& r) { return "run " + std::to_string(r.id) + " of " + r.database; };
    const std::string accept = "; --allow-empty accepts that";
    for (const auto& [side, only] :
         {std::pair{&c.base, &c.only_in_base}, std::pair{&c.candidate, &c.only_in_candidate}})
        if (only->empty()) throw UsageError(name(*side) + " has no cases: nothing to compare" + accept);
    throw UsageError("no case of " + name(c.base) + " (" + std::to_string(c.only_in_base.size()) + ") matches one of " +
                     name(c.candidate) + " (" + std::to_string(c.only_in_candidate.size()) + "): nothing was compared" +
                     accept);
}

void refuse_unchecked(const Comparison& c, bool allow_unchecked) {
    if (allow_unchecked) return;
    for (const CaseComparison& k : c.cases) {
        const RunSide* side = k.base.status == CaseStatus::unchecked        ? &c.base
                              : k.candidate.status == CaseStatus::unchecked ? &c.candidate
                                                                            : nullptr;
        if (!side) continue;
        throw UsageError("run " + std::to_string(side->id) + " of " + side->database + ": case " + k.key.family + "/" +
                         k.key.variant + "/" + k.key.backend +
                         " is unchecked (no reference checked its output); --allow-unchecked compares it");
    }
}

void print_warnings(const Comparison& c) {
    for (const auto& w : c.warnings) std::cerr << "memwall: warning: " << w << "\n";
}

}  // namespace memwall::cli
