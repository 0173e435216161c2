#include "profiler/roofline.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string_view>

namespace memwall {

namespace {

// The counter called `name`, a measured one (cupti, perf, emu) before a model one.
const Counter* preferred(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* model = nullptr;
    for (const auto& c : cs) {
        if (c.name != name) continue;
        if (c.source != CounterSource::model) return &c;
        if (!model) model = &c;
    }
    return model;
}

// Outermost first: dram, llc, then numbered levels from the highest (l3, l2, l1), then any
// other level name.
int outer_rank(std::string_view level) {
    if (level == "dram") return 0;
    if (level == "llc") return 1;
    int n = 0;
    if (level.size() > 1 && level[0] == 'l') {
        auto [end, ec] = std::from_chars(level.data() + 1, level.data() + level.size(), n);
        if (ec == std::errc{} && end == level.data() + level.size() && n > 0 && n < 100)
            return 100 - n;
    }
    return 1000;
}

}  // namespace

RooflinePoint place_on_roofline(const std::vector<Counter>& counters, double seconds,
                                const Ceilings& ceilings) {
    RooflinePoint p;
    p.seconds = seconds;
    const Counter* flops = preferred(counters, memwall::counters::flops);
    if (flops) p.flops = flops->value;
    if (flops && seconds > 0) p.flops_per_second = flops->value / seconds;

    // One level per bandwidth ceiling that has a byte counter.
    for (const auto& ceiling : ceilings.items) {
        if (ceiling.kind != CeilingKind::bandwidth || ceiling.value <= 0) continue;
        const Counter* bytes = preferred(counters, counters::bytes_at(ceiling.name));
        if (!bytes || bytes->value <= 0) continue;
        RooflineLevel l;
        l.level = ceiling.name;
        l.bytes = bytes->value;
        l.bandwidth = ceiling.value;
        l.source = bytes->source;
        p.levels.push_back(std::move(l));
    }
    std::stable_sort(p.levels.begin(), p.levels.end(), [](const auto& a, const auto& b) {
        return outer_rank(a.level) < outer_rank(b.level);
    });

    if (p.levels.empty()) return p;
    const RooflineLevel& primary = p.levels.front();
    p.bytes_source = primary.source;
    if (seconds > 0) p.bytes_per_second = primary.bytes / seconds;
    for (auto& l : p.levels) l.intensity = p.flops / l.bytes;
    p.intensity = primary.intensity;

    const double peak = ceilings.peak_flops();
    if (!flops || flops->value <= 0 || peak <= 0 || seconds <= 0) return p;
    p.attainable = peak;
    p.bound = "compute";
    for (auto& l : p.levels) {
        l.attainable = std::min(peak, l.intensity * l.bandwidth);
        if (l.attainable < p.attainable) {
            p.attainable = l.attainable;
            p.bound = l.level;
        }
    }
    p.percent_of_bound = p.flops_per_second / p.attainable * 100;
    p.valid = true;
    return p;
}

RoofSegment roof_polyline(double bandwidth, double peak, double x_min, double x_max) {
    if (!(bandwidth > 0) || !(peak > 0) || !(x_min > 0) || !(x_max > x_min))
        throw std::invalid_argument(
            "roof_polyline: need bandwidth > 0, peak > 0, 0 < x_min < x_max");
    // The ridge clamped to the drawn range keeps all three points on the roof.
    const double ridge = std::clamp(peak / bandwidth, x_min, x_max);
    auto roof = [&](double x) { return std::min(peak, bandwidth * x); };
    return {x_min, roof(x_min), ridge, roof(ridge), x_max, roof(x_max)};
}

}  // namespace memwall
