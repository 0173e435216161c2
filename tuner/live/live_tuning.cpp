#include "tuner/live/live_tuning.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace memwall {

std::vector<Value> default_tuning_values(const Axis& a, bool midpoints) {
    std::vector<Value> out;
    switch (a.kind) {
        case AxisKind::integer: {
            if (!a.min || !a.max) return out;
            constexpr double top = 1ull << 52;  // integers exact in a double
            const auto lo = static_cast<std::int64_t>(std::ceil(std::clamp(*a.min, 1.0, top)));
            const auto hi = static_cast<std::int64_t>(std::floor(std::clamp(*a.max, 1.0, top)));
            for (std::int64_t p = 1; p <= hi; p *= 2) {
                if (p >= lo) out.emplace_back(p);
                const std::int64_t mid = p + p / 2;  // 3 * 2^(k-1), between p and 2p
                if (midpoints && p >= 2 && mid >= lo && mid <= hi) out.emplace_back(mid);
            }
            return out;
        }
        case AxisKind::boolean: return {std::int64_t{0}, std::int64_t{1}};
        case AxisKind::string:
            for (const auto& c : a.choices) out.emplace_back(c);
            return out;
        case AxisKind::real: return out;
    }
    return out;
}

namespace {

bool given(const std::vector<std::pair<std::string, std::string>>& overrides, const std::string& name) {
    return std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) { return o.first == name; });
}

Params default_anchor(const LiveTarget& t) {
    Space s = t.family->space(*t.variant);
    for (const auto& d : t.variant->default_axes) s.apply_override(d);
    for (const auto& [name, value] : t.problem.values()) s.set_values(name, {value});
    std::vector<Params> points;
    try {
        points = s.points();
    } catch (const UsageError&) {  // the validator refuses the defaults for this problem
    }
    return points.empty() ? t.space.params(0) : s.project(points.front(), AxisRole::tunable);
}

}  // namespace

LiveTarget live_target(const Catalogue& catalogue, const std::string& family, const std::string& variant,
                       Backend backend, const std::vector<std::string>& overrides) {
    LiveTarget t;
    t.family = &catalogue.family(family);
    t.variant = &catalogue.variant(family, variant, backend);
    const std::string kernel = family + "/" + variant + " on " + std::string(to_string(backend));
    if (t.variant->tunables.empty()) throw UsageError(kernel + " has no tunable axes: nothing to tune");

    Space space = t.family->space(*t.variant);
    for (const auto& d : t.variant->default_axes) space.apply_override(d);
    std::vector<std::pair<std::string, std::string>> user;
    for (const auto& o : overrides) {
        space.apply_override(o);  // unknown axis, malformed value -> UsageError
        user.push_back(split_override(o));
    }
    for (const auto& [name, value] : user) space.check_not_shadowed(name);
    for (const auto& zip : space.zipped()) {
        const auto n = std::count_if(zip.begin(), zip.end(), [&](const auto& a) { return given(user, a); });
        if (n == 0 || n == static_cast<std::ptrdiff_t>(zip.size())) continue;
        std::string names, example;
        for (const auto& a : zip) {
            names += (names.empty() ? "" : " and ") + a;
            example += " --axis " + a + "=V";
        }
        throw UsageError(names + " are tied: give all of them (" + example.substr(1) + ")");
    }
    for (const Axis& a : space.axes())
        if (a.role == AxisRole::problem && given(user, a.name) && space.values(a.name).size() > 1)
            throw UsageError("problem axis '" + a.name + "' has " + std::to_string(space.values(a.name).size()) +
                             " values: a tuning session tunes one problem, give one value");

    // One problem: the axes the user left open take the values of the first valid point.
    std::vector<Params> points = space.points();
    if (points.empty()) throw UsageError("no point of " + kernel + "'s space satisfies its constraints");
    t.problem = space.project(points.front(), AxisRole::problem);
    for (const auto& [name, value] : t.problem.values()) {
        if (space.values(name).size() > 1) t.defaulted.set(name, value);
        space.set_values(name, {value});
    }

    // Default ranges for the tunables the user left open; midpoints only while affordable.
    for (const Axis& a : space.axes())
        if (a.role == AxisRole::tunable && !given(user, a.name) && !default_tuning_values(a, false).empty())
            t.ranged.push_back(a.name);
    // Each range holds the variant's default values too: a tuned best is never chosen from a space
    // without the configuration run untuned (conv im2win's default Wb=6 is a midpoint, and was
    // 1.4x faster than every configuration of the space without them on an AVX2 CPU).
    const Space defaults = space;
    for (bool midpoints : {true, false}) {
        for (const auto& name : t.ranged) {
            std::vector<Value> range = default_tuning_values(*space.find(name), midpoints);
            for (const Value& v : defaults.values(name)) range.push_back(v);
            std::sort(range.begin(), range.end());
            range.erase(std::unique(range.begin(), range.end()), range.end());
            space.set_values(name, std::move(range));
        }
        t.space = tuning_space_from(space);
        if (t.space.size() <= kMaxDefaultConfigurations || t.ranged.empty()) break;
    }
    // A range value no valid configuration uses (Br=12 where Br is a multiple of 8) is dropped,
    // so every value a strategy sees can be measured.
    bool unused = false;
    for (std::size_t p = 0; p < t.space.parameters().size(); ++p) {
        const Parameter& par = t.space.parameters()[p];
        if (std::find(t.ranged.begin(), t.ranged.end(), par.name) == t.ranged.end()) continue;
        std::vector<bool> used(par.values.size(), false);
        for (std::size_t i = 0; i < t.space.size(); ++i) used[t.space.config(i)[p]] = true;
        std::vector<Value> kept;
        for (std::size_t v = 0; v < used.size(); ++v)
            if (used[v]) kept.push_back(par.values[v]);
        unused = unused || kept.size() < par.values.size();
        space.set_values(par.name, std::move(kept));
    }
    if (unused) t.space = tuning_space_from(space);
    t.anchor = default_anchor(t);
    for (std::size_t id = 0; id < t.space.size() && !t.anchor_id; ++id)
        if (t.space.params(id).canonical() == t.anchor.canonical()) t.anchor_id = id;
    return t;
}

std::string tuning_device(Backend backend, const DeviceSpec* predicted_for) {
    if (backend == Backend::cuda_emu && predicted_for) return predicted_for->name;
    return probe_backend(backend).device;
}

}  // namespace memwall
