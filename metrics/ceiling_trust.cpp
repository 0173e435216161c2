#include "metrics/ceiling_trust.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace memwall {

namespace {

std::string percent(double share) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100 * share);
    return buf;
}

// "12.3 < 30.1 GB/s"
std::string compared(double a, const char* op, double b) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f %s %.1f GB/s", a / 1e9, op, b / 1e9);
    return buf;
}

// Capacity as an order of levels: DRAM (capacity 0) is outside every cache.
double depth(const Ceiling& c) { return c.capacity_bytes > 0 ? c.capacity_bytes : HUGE_VAL; }

// Adds a hierarchy reason unless the ceiling has one already: the nearest level it contradicts
// says enough, and the line that shows the reasons stays readable.
void add_hierarchy_reason(Ceiling& c, const std::string& why) {
    if (c.unreliable.find(" GB/s), a level ") != std::string::npos) return;
    c.unreliable += (c.unreliable.empty() ? "" : "; ") + why;
}

}  // namespace

bool ran_together(std::span<const double> starts, std::span<const double> ends) {
    if (starts.empty() || starts.size() != ends.size()) return false;
    const auto [first, last] = std::minmax_element(starts.begin(), starts.end());
    const double span = *std::max_element(ends.begin(), ends.end()) - *first;
    return span > 0 && *last - *first <= 0.1 * span;
}

std::string busy_reason(std::span<const TrialRound> rounds) {
    if (rounds.empty()) return "not measured";
    double cpu = 0, wall = 0;
    long most_reps = 0;
    bool together = false;
    for (const TrialRound& r : rounds) {
        cpu += r.cpu_seconds;
        wall += r.wall_seconds;
        together = together || r.together;
        most_reps = std::max(most_reps, r.reps);
    }
    if (!together) return "measured while the machine was busy: the threads never ran together";
    if (wall > 0 && cpu < kMinCpuShare * wall)
        return "measured while the machine was busy: the threads ran " + percent(cpu / wall) + " of the time";
    std::vector<double> full;
    for (const TrialRound& r : rounds)
        if (r.reps == most_reps && r.rate > 0) full.push_back(r.rate);
    if (full.size() >= 3) {
        std::sort(full.begin(), full.end());
        const double median = full[full.size() / 2], best = full.back();
        if (best > kMaxSpread * median) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "measured while the machine was busy: rounds spread %.1fx", best / median);
            return buf;
        }
    }
    return {};
}

std::string FmaLimit::describe() const {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%d FMA units x %d lanes x 2 FLOP x %.2f GHz (measured) x %d threads", units, lanes,
                  clock_hz / 1e9, threads);
    return buf;
}

std::string fma_peak_check(double measured, const FmaLimit& limit) {
    const double most = limit.flops_per_second();
    if (!(most > 0)) return {};
    const double share = measured / most;
    if (share > 1.1) return "above the cores' limit (" + percent(share) + " of " + limit.describe() + ")";
    if (share < 0.5)
        return "below half the cores' limit (" + percent(share) + " of " + limit.describe() +
               "): the FMA units were not kept busy";
    return {};
}

namespace {

// "30.1 GB/s", "454.3 GFLOP/s"
std::string figure(const Ceiling& c, double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f %s", v / 1e9, c.kind == CeilingKind::compute ? "GFLOP/s" : "GB/s");
    return buf;
}

Ceiling* named(std::vector<Ceiling>& set, const std::string& name) {
    for (Ceiling& c : set)
        if (c.name == name) return &c;
    return nullptr;
}

}  // namespace

std::vector<std::string> flag_moved_ceilings(std::vector<Ceiling>& start, const std::vector<Ceiling>& end) {
    std::vector<std::string> out;
    for (Ceiling& c : start) {
        const auto it = std::find_if(end.begin(), end.end(), [&](const Ceiling& e) { return e.name == c.name; });
        if (it == end.end() || !(c.value > 0)) continue;
        if (std::abs(it->value - c.value) <= kMaxCeilingMove * c.value) continue;
        const std::string figure_end = figure(c, it->value);
        c.unreliable += (c.unreliable.empty() ? "" : "; ") + std::string("moved from ") + figure(c, c.value) + " to " +
                        figure_end + " between the run's start and end";
        out.push_back(c.name);
    }
    return out;
}

std::vector<std::string> raise_ceilings(std::vector<Ceiling>& have, const std::vector<Ceiling>& again) {
    std::vector<std::string> out;
    for (const Ceiling& a : again) {
        Ceiling* c = named(have, a.name);
        if (!c || !(a.value > c->value)) continue;
        c->value = a.value;
        c->method = a.method;
        c->unreliable = a.unreliable;
        out.push_back(a.name);
    }
    return out;
}

std::vector<HierarchyViolation> flag_hierarchy_violations(std::vector<Ceiling>& ceilings) {
    std::vector<Ceiling*> levels;
    for (Ceiling& c : ceilings)
        if (c.kind == CeilingKind::bandwidth) levels.push_back(&c);
    std::stable_sort(levels.begin(), levels.end(),
                     [](const Ceiling* a, const Ceiling* b) { return depth(*a) < depth(*b); });
    std::vector<HierarchyViolation> out;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        for (std::size_t j = i + 1; j < levels.size(); ++j) {
            Ceiling& inner = *levels[i];
            Ceiling& outer = *levels[j];
            if (!(inner.value < outer.value)) continue;
            add_hierarchy_reason(inner, "slower than " + outer.name + " (" + compared(inner.value, "<", outer.value) +
                                            "), a level outside it");
            add_hierarchy_reason(outer, "faster than " + inner.name + " (" + compared(outer.value, ">", inner.value) +
                                            "), a level inside it");
            out.push_back({inner.name, outer.name});
        }
    }
    return out;
}

}  // namespace memwall
