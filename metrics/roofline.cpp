#include "metrics/roofline.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "metrics/levels.hpp"

namespace memwall {

namespace {

// Of a level's bytes: measured before modelled, the device's own counters before emulation,
// and a lower bound after all of them.
int level_preference(const RooflineLevel& l) {
    int rank = 4;
    switch (l.source) {
        case CounterSource::cupti: rank = 0; break;
        case CounterSource::perf: rank = 1; break;
        case CounterSource::emu: rank = 2; break;
        case CounterSource::model: rank = 3; break;
        case CounterSource::timer: break;
    }
    return l.lower_bound ? rank + 4 : rank;
}

// The counter called `name`, a measured one before a model one.
const Counter* preferred(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* model = nullptr;
    for (const auto& c : cs) {
        if (c.name != name) continue;
        if (c.source != CounterSource::model) return &c;
        if (!model) model = &c;
    }
    return model;
}

bool outer_first(const RooflineLevel& a, const RooflineLevel& b) { return outer_rank(a.level) < outer_rank(b.level); }

}  // namespace

const RooflineLevel* RooflinePoint::at(const std::string& level) const {
    for (const RooflineLevel& l : levels)
        if (l.level == level) return &l;
    return nullptr;
}

const RooflineLevel* RooflinePoint::bounding_level() const {
    if (const RooflineLevel* l = at(bound)) return l;
    return levels.empty() ? nullptr : &levels.front();
}

RooflinePoint place_on_roofline(const std::vector<Counter>& counters, double seconds, const Ceilings& ceilings) {
    RooflinePoint p;
    p.seconds = seconds;
    if (const Counter* flops = preferred(counters, memwall::counters::kFlops)) p.flops = std::max(flops->value, 0.0);
    if (seconds > 0) p.flops_per_second = p.flops / seconds;
    // FLOPs on tensor cores are bounded by their roofs (bf16 and f16 by bf16_tensor, at one rate
    // on sm_80 and sm_90; tf32 by tf32_tensor), the rest by the FP32 FMA roof; the tensor cores
    // and the FMA units run side by side, so the longer of the two bounds, while the tensor
    // cores' two kinds of work take turns. A unit without a roof bounds nothing (tensor FLOPs are
    // never put on the FMA roof, which would overstate the percentage).
    auto value = [&](std::string_view name) {
        const Counter* c = preferred(counters, name);
        return c ? std::max(c->value, 0.0) : 0.0;
    };
    const double half_flops =
        std::min(value(memwall::counters::kFlopsBf16Tensor) + value(memwall::counters::kFlopsF16Tensor), p.flops);
    const double tf32_flops = std::min(value(memwall::counters::kFlopsTf32Tensor), p.flops - half_flops);
    const double fma_peak = ceilings.compute_peak("fp32_fma"), half_peak = ceilings.compute_peak("bf16_tensor"),
                 tf32_peak = ceilings.compute_peak("tf32_tensor");
    const double tensor_seconds =
        (half_peak > 0 ? half_flops / half_peak : 0) + (tf32_peak > 0 ? tf32_flops / tf32_peak : 0);
    const double compute_seconds =
        std::max(fma_peak > 0 ? (p.flops - half_flops - tf32_flops) / fma_peak : 0, tensor_seconds);
    const double peak = compute_seconds > 0 ? p.flops / compute_seconds : 0;  // the case's compute roof

    // One point per (level, source), then the preferred source of each level.
    std::vector<RooflineLevel> all;
    for (const LevelBytes& b : bytes_by_level(counters)) {
        if (!(b.bytes > 0)) continue;
        RooflineLevel l;
        l.level = b.level;
        l.bytes = b.bytes;
        l.source = b.source;
        l.counters = b.counters;
        l.lower_bound = b.lower_bound;
        l.intensity = p.flops / b.bytes;
        if (seconds > 0) l.bytes_per_second = b.bytes / seconds;
        if (const Ceiling* c = ceilings.find(b.level); c && c->kind == CeilingKind::bandwidth && c->value > 0) {
            l.bandwidth = c->value;
            l.attainable = peak > 0 ? std::min(peak, l.intensity * c->value) : l.intensity * c->value;
        }
        all.push_back(std::move(l));
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& a, const auto& b) { return level_preference(a) < level_preference(b); });
    for (RooflineLevel& l : all) {
        if (!p.at(l.level))
            p.levels.push_back(std::move(l));
        else
            p.beside.push_back(std::move(l));
    }
    std::stable_sort(p.levels.begin(), p.levels.end(), outer_first);
    std::stable_sort(p.beside.begin(), p.beside.end(), outer_first);
    if (p.levels.empty()) return p;
    const RooflineLevel& primary = p.levels.front();
    p.intensity = primary.intensity;
    p.bytes_per_second = primary.bytes_per_second;
    p.bytes_source = primary.source;

    // The roof that takes longest bounds the case; without a bandwidth roof nothing can be said.
    const bool roofed = std::any_of(p.levels.begin(), p.levels.end(), [](const auto& l) { return l.bandwidth > 0; });
    if (!roofed || !(seconds > 0)) return p;
    double longest = 0;
    if (p.flops > 0 && peak > 0) {
        longest = p.flops / peak;
        p.bound = "compute";
    }
    for (const RooflineLevel& l : p.levels) {
        if (!(l.bandwidth > 0)) continue;
        const double t = l.bytes / l.bandwidth;
        if (t > longest) {
            longest = t;
            p.bound = l.level;
        }
    }
    p.attainable = p.flops / longest;
    p.roof_seconds = longest;
    p.percent_of_bound = p.flops > 0 ? p.flops_per_second / p.attainable * 100 : longest / seconds * 100;
    p.valid = true;
    return p;
}

RoofSegment roof_polyline(double bandwidth, double peak, double x_min, double x_max) {
    if (!(bandwidth > 0) || !(peak > 0) || !(x_min > 0) || !(x_max > x_min))
        throw std::invalid_argument("roof_polyline: need bandwidth > 0, peak > 0, 0 < x_min < x_max");
    // The ridge clamped to the drawn range keeps all three points on the roof.
    const double ridge = std::clamp(peak / bandwidth, x_min, x_max);
    auto roof = [&](double x) { return std::min(peak, bandwidth * x); };
    return {x_min, roof(x_min), ridge, roof(ridge), x_max, roof(x_max)};
}

}  // namespace memwall
