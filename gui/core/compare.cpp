#include "gui/core/compare.hpp"

#include <map>

namespace memwall::gui {

QString verdict_text(Verdict v) {
    switch (v) {
    case Verdict::same: return QStringLiteral("same");
    case Verdict::faster: return QStringLiteral("faster");
    case Verdict::slower: return QStringLiteral("slower");
    case Verdict::only_baseline: return QStringLiteral("only in baseline");
    case Verdict::only_candidate: return QStringLiteral("only in candidate");
    case Verdict::untimed: return QStringLiteral("not timed");
    }
    return {};
}

QColor verdict_colour(Verdict v) {
    switch (v) {
    case Verdict::faster: return QColor(0, 140, 70);
    case Verdict::slower: return QColor(200, 30, 30);
    case Verdict::same: return QColor(120, 120, 120);
    default: return QColor(160, 120, 40);
    }
}

Verdict interval_verdict(const CaseRow& b, const CaseRow& c, double min_gap) {
    if (!b.timed() || !c.timed()) return Verdict::untimed;
    const double gap = min_gap * b.median;
    if (c.min > b.q3 + gap) return Verdict::slower;
    if (b.min > c.q3 + gap) return Verdict::faster;
    return Verdict::same;
}

std::vector<CompareRow> compare_cases(const std::vector<const CaseRow*>& baseline,
                                      const std::vector<const CaseRow*>& candidate, const VerdictRule& rule) {
    std::map<CaseKey, const CaseRow*> by_key;
    for (const CaseRow* c : candidate) by_key.emplace(c->key, c);
    std::vector<CompareRow> out;
    out.reserve(baseline.size());
    const auto fill = [&](const CaseRow* b, const CaseRow* c) {
        CompareRow r;
        const CaseRow& any = b ? *b : *c;
        r.key = any.key;
        r.label = case_label(any);
        r.baseline = b;
        r.candidate = c;
        r.baseline_median = b && b->timed() ? b->median : 0;
        r.candidate_median = c && c->timed() ? c->median : 0;
        if (!b)
            r.verdict = Verdict::only_candidate;
        else if (!c)
            r.verdict = Verdict::only_baseline;
        else if (!b->timed() || !c->timed())
            r.verdict = Verdict::untimed;
        else {
            r.ratio = c->median / b->median;
            r.verdict = rule(*b, *c);
        }
        out.push_back(std::move(r));
    };
    for (const CaseRow* b : baseline) {
        const auto it = by_key.find(b->key);
        if (it == by_key.end()) {
            fill(b, nullptr);
        } else {
            fill(b, it->second);
            by_key.erase(it);
        }
    }
    for (const CaseRow* c : candidate)
        if (by_key.count(c->key)) fill(nullptr, c);
    return out;
}

}  // namespace memwall::gui
