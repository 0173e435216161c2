// A case measured above one of its roofs proves the roof wrong: the hardware did more than the
// ceiling says it can. The run says so, measures that level again (the higher figure is kept),
// and flags a roof the case still beats, so no table shows more than 100% of a trusted roof.
#pragma once

#include <string>
#include <vector>

#include "metrics/ceilings.hpp"
#include "results/store.hpp"

namespace memwall {

struct RoofExcess {
    std::string ceiling;  // "l1", "dram", "fp32_fma"
    double percent = 0;   // the case's rate as a share of the roof, in percent (above 100)
    std::string label;    // "stream/copy/cpu n=4096": the case, for the reason
    std::string source;   // what gave its bytes or FLOPs ("model", "perf"): a model may be wrong too
};

// Every roof among `roofs` (names of host ceilings: cache levels, dram, fp32_fma) that a timed
// cpu case of `cases` beat: its bytes per second at a level above the level's ceiling, or its
// FLOP/s above the FMA peak. One entry per (case, roof).
std::vector<RoofExcess> cases_above_roofs(const std::vector<CaseRecord>& cases, const Ceilings& ceilings,
                                          const std::vector<std::string>& roofs);

// The roofs of `excess`, each once, in order of first appearance.
std::vector<std::string> roofs_beaten(const std::vector<RoofExcess>& excess);

// Flags, in place, each ceiling a case still beats ("a case ran at 125% of it: stream/copy/cpu
// n=4096, bytes from the model"), with its largest excess.
void flag_beaten_roofs(std::vector<Ceiling>& ceilings, const std::vector<RoofExcess>& excess);

}  // namespace memwall
