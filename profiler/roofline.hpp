// Places a case on the (hierarchical) roofline from its counters, its time and the run's
// ceilings.
#pragma once

#include <string>
#include <vector>

#include "profiler/ceilings.hpp"
#include "profiler/counter.hpp"

namespace memwall {

struct RooflineLevel {
    std::string level;          // "dram", "llc", ...
    double bytes = 0;
    double intensity = 0;       // FLOP per byte at this level
    double bandwidth = 0;       // the level's ceiling, B/s
    double attainable = 0;      // min(peak, intensity * bandwidth)
    CounterSource source = CounterSource::model;
};

struct RooflinePoint {
    double flops = 0;
    double seconds = 0;
    double flops_per_second = 0;   // achieved
    double bytes_per_second = 0;   // achieved, at the primary (outermost known) level
    double intensity = 0;          // at the primary level
    // Outermost first (dram, llc, l2, l1): each bandwidth ceiling with a "bytes.<name>"
    // counter above zero.
    std::vector<RooflineLevel> levels;
    double attainable = 0;         // the lowest roof over levels and compute
    std::string bound;             // "compute" or the level name that bounds it
    double percent_of_bound = 0;   // achieved / attainable * 100
    CounterSource bytes_source = CounterSource::model;
    // false when flops, bytes, the bandwidth or compute ceilings are missing, or seconds <= 0;
    // the fields that can still be computed are filled.
    bool valid = false;
};

// Measured counters (cupti/perf/emu) take precedence over model counters for the same level.
RooflinePoint place_on_roofline(const std::vector<Counter>& counters, double seconds,
                                const Ceilings& ceilings);

// A roof drawn as a straight line in log-log space: (x_min, bw*x_min), ridge (peak/bw, peak),
// (x_max, peak). Three points, never sampled; a ridge outside [x_min, x_max] is clamped to it.
// Throws std::invalid_argument unless bandwidth, peak > 0 and 0 < x_min < x_max.
struct RoofSegment {
    double x0, y0, ridge_x, ridge_y, x1, y1;
};
RoofSegment roof_polyline(double bandwidth, double peak, double x_min, double x_max);

}  // namespace memwall
