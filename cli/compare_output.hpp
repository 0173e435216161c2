// Output of a comparison for `memwall compare` and `memwall ci`: the console table, the
// format chosen with --format, and the report files of --report-dir.
#pragma once

#include <ostream>
#include <string>

#include "results/compare.hpp"

namespace memwall::cli {

// The runs, a table of the cases worst first (the verdict coloured when `colour`), why each
// case that is not SAME got its verdict, the geometric mean, the unmatched cases and the rule.
void print_comparison(std::ostream& os, const Comparison& c, bool colour);

// format: console (colour when standard output is a terminal and NO_COLOR is unset),
// markdown, json or junit.
void write_comparison(std::ostream& os, const Comparison& c, const std::string& format);

// Writes report.md, report.json and report.junit.xml into `dir`, created when missing, each
// whole or not at all. Throws UsageError when one would replace a compared database,
// EnvironmentError when one cannot be written.
void write_reports(const Comparison& c, const std::string& dir);

// Throws UsageError when one run has no cases or no case matched: a comparison of nothing
// would pass a check that checked nothing. `allow_empty` accepts it.
void refuse_empty(const Comparison& c, bool allow_empty);

// Throws UsageError when a compared case is unchecked (no reference checked its output: a
// benchmark without one, an imported run): correctness comes before speed. `allow_unchecked`
// accepts it.
void refuse_unchecked(const Comparison& c, bool allow_unchecked);

// Warnings, one line each on standard error.
void print_warnings(const Comparison& c);

}  // namespace memwall::cli
