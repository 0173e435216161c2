// Change points in a series of per-run medians: steps larger than the noise, as asv and
// Bencher flag them in a benchmark's history.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace memwall {

struct ChangeOptions {
    double threshold = 0.05;      // a step must change the level by at least this fraction
    double min_score = 4;         // and by this many standard errors of the step
    std::size_t min_segment = 2;  // runs on each side of a step (one odd run is no step)
};

struct ChangePoint {
    std::size_t index = 0;  // first point of the new level
    double before = 0;      // level (median of the segment's values) before and after
    double after = 0;
    double score = 0;  // the step in standard errors
};

// Binary segmentation on log values: in each segment, the split that best fits two levels
// (least absolute deviations from each side's median) is kept when the step between the two
// medians meets both the threshold and min_score standard errors, and both sides are searched
// again. The noise of a point is the run-to-run scatter (a robust scale of successive
// differences, so the steps themselves barely inflate it) plus the point's own
// `relative_error` (the standard error of its median, relative to it). `values` must be
// positive; `relative_error` is empty or of the same size. Returns the change points in index
// order. Throws std::invalid_argument on bad input.
std::vector<ChangePoint> detect_change_points(std::span<const double> values, std::span<const double> relative_error,
                                              const ChangeOptions& opt = {});

}  // namespace memwall
