// The one table from counter names to memory levels, so every figure of a level's bytes,
// whatever measured or modelled it, reaches the roofline: CUPTI metric names (from a GPU, or
// estimated under the same names by cuda-emu), perf events, and the models' bytes.<level>.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "metrics/counter.hpp"

namespace memwall {

// One way to get a level's bytes: the sum of `counters` (all of them present) times `scale`.
struct LevelRule {
    std::string_view level;  // "dram", "llc", "l2", "l1"
    std::vector<std::string_view> counters;
    double scale = 1;          // bytes per unit: 32 per sector, 64 per cache line
    std::string_view note;     // what the rule counts, for documentation and tooltips
    bool lower_bound = false;  // counts part of the traffic only (perf's load misses)
};

// In order of preference within a level: the first rule whose counters a source provides wins.
// The models' "bytes.<level>" (any source) come before all of them.
const std::vector<LevelRule>& level_rules();

// The bytes a case's counters give at one level from one source.
struct LevelBytes {
    std::string level;
    CounterSource source = CounterSource::model;
    double bytes = 0;
    std::string counters;  // the counters summed: "dram__bytes_read.sum + dram__bytes_write.sum"
    bool lower_bound = false;
};

// One entry per (level, source) the counters give, in the order of the counters' first
// appearance. A level's bytes from one source come from its first matching rule.
std::vector<LevelBytes> bytes_by_level(const std::vector<Counter>& counters);

// Outermost first: a slower tier ("tier.*"), dram, llc, then numbered levels from the highest (l3, l2, l1), then any
// other name; for sorting levels.
int outer_rank(std::string_view level);

}  // namespace memwall
