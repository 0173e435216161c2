// Reports of a run-versus-run comparison: Markdown for a pull-request comment, JSON for tools,
// JUnit XML (one testcase per case, a regression as a failure) for CI systems to show natively.
// The console table is the CLI's (cli/compare_output.hpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "results/compare.hpp"

namespace memwall {

std::string case_label(const CaseKey& k);                // "attention/flash/cpu"
std::string params_label(const std::string& canonical);  // "batch=1,heads=8"; "-" for {}
std::string format_duration(double seconds);             // "812 us", "1.25 ms", "2.03 s"
std::string format_interval(Interval ratio_ci);          // "[+1.2%, +3.4%]"
// "run 12 of memwall.db (branch=main, commit=abc123)"
std::string run_label(const RunSide& r);
// One sentence stating the verdict rule with the options' threshold and alpha.
// The rule in one sentence; `paired` names the signed-rank test of runs measured together.
std::string verdict_rule(const CompareOptions& o, bool paired = false);
// "Wilcoxon signed-rank" for the basis "paired repetitions", else "Mann-Whitney".
std::string_view rank_test_name(const std::string& basis);
// The cases worst first (FAILED, SLOWER, UNSURE, FASTER, SAME), key order within a verdict:
// the order of the console and Markdown reports.
std::vector<const CaseComparison*> by_severity(const Comparison& c);
// "3 SLOWER, 1 UNSURE, 12 SAME" (verdicts with no case left out); "no cases" when empty.
std::string verdict_counts(const Comparison& c);

void write_markdown(const Comparison& c, std::ostream& os);
void write_json(const Comparison& c, std::ostream& os);
void write_junit(const Comparison& c, std::ostream& os);

}  // namespace memwall
