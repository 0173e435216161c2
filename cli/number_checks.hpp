// Checks of numeric options, run by CLI11 on the text before it is converted: the text must read
// as a finite number within the option's range, or as a whole number for an unsigned one. strtod, and CLI11 with it,
// take "inf", "nan" and "1e400" as doubles, and a range test alone lets NaN through (every comparison with it is
// false).
#pragma once

#include <limits>

#include <CLI/CLI.hpp>

namespace memwall::cli {

// A finite number from `lo` (excluded when `lo_excluded`) to `hi`.
CLI::Validator finite_number(double lo, bool lo_excluded, double hi = std::numeric_limits<double>::max());

inline CLI::Validator positive_number() { return finite_number(0, true); }
inline CLI::Validator non_negative_number() { return finite_number(0, false); }
inline CLI::Validator fraction() { return finite_number(0, false, 1); }

// Digits only: CLI11 reads "-1" into an unsigned option as its largest value (a budget of
// 18446744073709551615 evaluations, a seed of 2^64 - 1).
CLI::Validator whole_number();

}  // namespace memwall::cli
