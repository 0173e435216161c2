#include "harness/roof_check.hpp"

#include <algorithm>
#include <cstdio>

#include "metrics/roofline.hpp"
#include "results/report.hpp"

namespace memwall {

namespace {

bool among(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<RoofExcess> cases_above_roofs(const std::vector<CaseRecord>& cases, const Ceilings& ceilings,
                                          const std::vector<std::string>& roofs) {
    std::vector<RoofExcess> out;
    const Ceilings host = ceilings.for_backend("cpu");
    const double peak = host.compute_peak("fp32_fma");
    for (const CaseRecord& c : cases) {
        if (c.key.backend != "cpu" || !ran(c.status) || c.summary.n == 0) continue;
        const RooflinePoint p = place_on_roofline(c.counters, c.summary.median, host);
        const std::string label =
            c.key.family + "/" + c.key.variant + "/" + c.key.backend + " " + params_label(c.key.problem);
        for (const RooflineLevel& l : p.levels)
            if (l.bandwidth > 0 && l.bytes_per_second > l.bandwidth && among(roofs, l.level))
                out.push_back(
                    {l.level, 100 * l.bytes_per_second / l.bandwidth, label, std::string(to_string(l.source))});
        if (peak > 0 && p.flops_per_second > peak && among(roofs, "fp32_fma"))
            out.push_back({"fp32_fma", 100 * p.flops_per_second / peak, label, "the counted FLOPs"});
    }
    return out;
}

std::vector<std::string> roofs_beaten(const std::vector<RoofExcess>& excess) {
    std::vector<std::string> out;
    for (const RoofExcess& e : excess)
        if (!among(out, e.ceiling)) out.push_back(e.ceiling);
    return out;
}

void flag_beaten_roofs(std::vector<Ceiling>& ceilings, const std::vector<RoofExcess>& excess) {
    for (Ceiling& c : ceilings) {
        const RoofExcess* worst = nullptr;
        for (const RoofExcess& e : excess)
            if (e.ceiling == c.name && (!worst || e.percent > worst->percent)) worst = &e;
        if (!worst) continue;
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.0f%%", worst->percent);
        c.unreliable += (c.unreliable.empty() ? "" : "; ") + std::string("a case ran at ") + pct + " of it (" +
                        worst->label + ", from " + worst->source + ")";
    }
}

}  // namespace memwall
