// Baseline comparison for the compare view: cases of two runs paired by identity, each pair
// with its time ratio and a verdict. The verdict rule is a parameter: the view is built
// against CompareRow, so results/compare (issue 5) plugs in by supplying its rule.
#pragma once

#include <functional>
#include <vector>

#include <QColor>
#include <QString>

#include "gui/core/case_data.hpp"

namespace memwall::gui {

enum class Verdict { same, faster, slower, only_baseline, only_candidate, untimed };
QString verdict_text(Verdict v);
QColor verdict_colour(Verdict v);

struct CompareRow {
    CaseKey key;
    QString label;                       // kernel and parameters
    const CaseRow* baseline = nullptr;   // owned by the caller; null when only in the candidate
    const CaseRow* candidate = nullptr;  // null when only in the baseline
    double baseline_median = 0, candidate_median = 0;  // seconds; 0 when absent or untimed
    double ratio = 0;                    // candidate / baseline time; 0 when not both timed
    Verdict verdict = Verdict::untimed;
};

// Decides faster/slower/same for two timed cases of the same identity.
using VerdictRule = std::function<Verdict(const CaseRow& baseline, const CaseRow& candidate)>;

// Until results/compare lands: nvbench's robust rule on the stored summaries. A change counts
// only when the [min, q3] intervals do not overlap and the gap between them is at least
// `min_gap` of the baseline median; otherwise the two are the same.
Verdict interval_verdict(const CaseRow& baseline, const CaseRow& candidate, double min_gap = 0.005);

// Pairs the cases by CaseKey; the baseline order first, then cases only in the candidate.
std::vector<CompareRow> compare_cases(const std::vector<const CaseRow*>& baseline,
                                      const std::vector<const CaseRow*>& candidate,
                                      const VerdictRule& rule = [](const CaseRow& b, const CaseRow& c) {
                                          return interval_verdict(b, c);
                                      });

}  // namespace memwall::gui
