// A suite: a sweep kept in the repository as a JSON file (suites/NAME.json), which `memwall ci`
// runs and compares with a baseline. Besides the sweep (the keys of a stored SweepSpec, all
// optional) it holds the repetitions per case, whether they are interleaved, and the
// comparison's threshold and alpha.
#pragma once

#include <string>

#include "harness/sweep.hpp"
#include "results/compare.hpp"

namespace memwall {

struct Suite {
    std::string name;  // "name" in the file, else the file name without .json
    std::string description;
    SweepSpec sweep;
    int repetitions = 5;  // Google Benchmark repetitions; samples are kept per repetition
    // Repetitions in random order across the cases (Google Benchmark's random interleaving),
    // so a burst of load from a neighbour lands on some repetitions of many cases rather than
    // on all repetitions of one: it then widens the intervals instead of faking a change.
    bool interleave = true;
    CompareOptions compare;  // "threshold" and "alpha" from the file, else the defaults
};

// Reads and validates a suite file; unknown keys are refused, so a typo is not ignored.
// Throws InputError naming the file and what is wrong with it.
Suite load_suite(const std::string& path);

}  // namespace memwall
