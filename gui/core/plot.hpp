// The charts of the explorer assembled from runs' cases and tuning sessions: used by the GUI's
// panels and by `memwall plot`, which renders them headless into PNG or SVG.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gui/core/compare.hpp"
#include "gui/core/heatmap_chart.hpp"
#include "gui/core/parameter_map.hpp"
#include "gui/core/results_reader.hpp"
#include "gui/core/roofline_chart.hpp"
#include "gui/core/tuning_chart.hpp"
#include "gui/core/tuning_traces.hpp"

namespace memwall::gui {

std::vector<const CaseRow*> pointers(const std::vector<CaseRow>& rows);

// The roofs drawn behind `rows`: the CUDA device's when every row is a cuda case, else the host's
// (each point is placed on its own backend's roofs either way, CaseRow::point).
Ceilings roofs_for(const Ceilings& all, const std::vector<const CaseRow*>& rows);
// Title, ceilings and points of `run`'s roofline.
void configure_roofline(RooflineChart& chart, const RunRow& run, const std::vector<const CaseRow*>& rows);

// Compares cases of two runs and returns when done (the GUI's Comparer does it in the background).
RunComparison compare_now(const ResultsReader& reader, const RunRow& baseline,
                          const std::vector<const CaseRow*>& baseline_rows, const RunRow& candidate,
                          const std::vector<const CaseRow*>& candidate_rows, const CompareOptions& options);

// The candidate's cases on its roofline, with an arrow from each baseline point to its
// candidate, coloured by verdict; the subtitle counts the verdicts and states the rule.
void configure_compare(RooflineChart& chart, const RunRow& baseline, const RunRow& candidate,
                       const std::vector<CompareRow>& rows, const RunComparison& comparison);

// Kernels ("family/variant/backend") among `rows` that vary at least two parameters, those
// varying more tunables first (a map over tile sizes is the usual question).
QStringList mappable_kernels(const std::vector<const CaseRow*>& rows);
// The rows of one kernel ("family/variant/backend").
std::vector<const CaseRow*> rows_of_kernel(const std::vector<const CaseRow*>& rows, const QString& kernel);
void configure_heatmap(HeatmapChart& chart, const QString& kernel, ParameterMap map);

void configure_tuning(TuningChart& chart, const TuningStudy& study, std::vector<TuningTrace> traces);
// The study `text` names: one holding session id `text`, else the first whose name contains
// it; the newest session's study when `text` is empty; -1 when none matches.
int find_study(const std::vector<TuningStudy>& studies, const std::string& text);

struct PlotRequest {
    std::string kind;  // roofline | compare | heatmap | tuning
    std::string out;   // .png or .svg
    std::int64_t run = 0;
    std::optional<std::int64_t> baseline;  // compare; default: the run before `run`
    CompareOptions compare;                // compare: memwall compare's defaults
    std::string level;                     // roofline: "" (outermost), all (hierarchical), dram, llc, l2, l1
    std::string kernel;                    // heatmap: family/variant/backend; default: the first mappable
    std::string x, y;                      // heatmap axes; default: the first two that vary
    MapMetric metric = MapMetric::time;
    std::string session;  // tuning: see find_study; `run` is not used
    int width = 1200, height = 800;
};

// Builds the chart and writes the file. Throws UsageError when the request does not fit the
// data (unknown kind, no earlier run to compare with, nothing that varies two axes, no tuning
// session, ...).
void plot(const ResultsReader& reader, const PlotRequest& request);

}  // namespace memwall::gui
