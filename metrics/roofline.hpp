// Places a case on the hierarchical roofline from its counters, its time and the run's
// ceilings: one point per memory level it has bytes at (metrics/levels.hpp), each from
// measured counters where present and from the model otherwise, labelled with its source.
#pragma once

#include <string>
#include <vector>

#include "metrics/ceilings.hpp"
#include "metrics/counter.hpp"

namespace memwall {

struct RooflineLevel {
    std::string level;  // "dram", "llc", "l2", "l1"
    double bytes = 0;
    double intensity = 0;         // FLOP per byte at this level (0 without FLOPs)
    double bytes_per_second = 0;  // achieved
    double bandwidth = 0;         // the level's ceiling, B/s; 0 when the run has none
    double attainable = 0;        // min(peak, intensity * bandwidth); 0 without a ceiling
    CounterSource source = CounterSource::model;
    std::string counters;      // what gave the bytes
    bool lower_bound = false;  // the counters see part of the traffic only (perf's load misses)
};

struct RooflinePoint {
    double flops = 0;
    double seconds = 0;
    double flops_per_second = 0;  // achieved
    // Outermost first (dram, llc, l2, l1): each level with bytes above zero, from the preferred
    // source: cupti, then perf, then emu, then the model; a lower bound (perf's cache load
    // misses: stores and prefetches unseen) only where no other figure exists.
    std::vector<RooflineLevel> levels;
    // The other sources' points at those levels (the model's beside measured ones, a lower
    // bound beside the model's), so they can be drawn side by side.
    std::vector<RooflineLevel> beside;
    // The primary level is the outermost one: its intensity, rate and source.
    double intensity = 0;
    double bytes_per_second = 0;
    CounterSource bytes_source = CounterSource::model;
    // The bound: the roof with the longest minimum time (bytes / bandwidth at each level with a
    // ceiling; for compute, FLOPs / the fp32_fma peak, or with flops.{bf16,f16,tf32}_tensor
    // counters the longer of the tensor cores' time (bf16 and f16 FLOPs / the bf16_tensor peak
    // plus tf32 FLOPs / the tf32_tensor peak) and the rest / the fp32_fma peak);
    // attainable = FLOPs / that time, and percent_of_bound = that time / seconds. Without FLOPs (a copy), compute is no
    // roof and the percentage is of the bounding level's bandwidth.
    double attainable = 0;
    double roof_seconds = 0;  // the bound's minimum time
    std::string bound;        // "compute" or a level name; empty when nothing bounds
    double percent_of_bound = 0;
    // true when seconds > 0 and a level with bytes has a bandwidth ceiling; the fields that can
    // be computed are filled regardless.
    bool valid = false;

    // The level named `level` among levels, or nullptr.
    const RooflineLevel* at(const std::string& level) const;
    // The bounding level's point, or the primary one when compute bounds; nullptr without levels.
    const RooflineLevel* bounding_level() const;
};

RooflinePoint place_on_roofline(const std::vector<Counter>& counters, double seconds, const Ceilings& ceilings);

// A roof drawn as a straight line in log-log space: (x_min, bw*x_min), ridge (peak/bw, peak),
// (x_max, peak). Three points, never sampled; a ridge outside [x_min, x_max] is clamped to it.
// Throws std::invalid_argument unless bandwidth, peak > 0 and 0 < x_min < x_max.
struct RoofSegment {
    double x0, y0, ridge_x, ridge_y, x1, y1;
};
RoofSegment roof_polyline(double bandwidth, double peak, double x_min, double x_max);

}  // namespace memwall
