#include "core/space.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "core/errors.hpp"

namespace memwall {

Space::Space(std::vector<Axis> axes, std::vector<Constraint> constraints)
    : axes_(std::move(axes)), constraints_(std::move(constraints)) {
    for (const auto& a : axes_) values_.push_back(a.defaults);
}

const Axis* Space::find(const std::string& name) const {
    for (const auto& a : axes_)
        if (a.name == name) return &a;
    return nullptr;
}

static std::size_t index_of(const std::vector<Axis>& axes, const std::string& name) {
    for (std::size_t i = 0; i < axes.size(); ++i)
        if (axes[i].name == name) return i;
    std::string known;
    for (const auto& a : axes) known += (known.empty() ? "" : ", ") + a.name;
    throw UsageError("unknown axis '" + name + "' (axes: " + known + ")");
}

void Space::set_values(const std::string& name, std::vector<Value> values) {
    std::size_t i = index_of(axes_, name);
    if (values.empty()) throw UsageError("axis '" + name + "': no values given");
    for (const auto& v : values) axes_[i].validate(v);
    values_[i] = std::move(values);
}

void Space::apply_override(std::string_view text) {
    auto [name, spec] = split_override(text);
    const std::size_t i = index_of(axes_, name);
    set_values(name, parse_axis_values(axes_[i], spec));
}

void Space::zip(const std::vector<std::string>& names) {
    if (names.size() < 2) throw UsageError("a zip needs at least two axes");
    for (const auto& n : names) {
        index_of(axes_, n);
        for (const auto& g : zips_)
            if (std::find(g.begin(), g.end(), n) != g.end()) throw UsageError("axis '" + n + "' is already zipped");
        if (std::count(names.begin(), names.end(), n) > 1)
            throw UsageError("axis '" + n + "' appears twice in one zip");
    }
    zips_.push_back(names);
}

const std::vector<Value>& Space::values(const std::string& name) const { return values_[index_of(axes_, name)]; }

namespace {
// One factor of the cartesian product: a lone axis or a zipped group.
struct Group {
    std::vector<std::size_t> axes;
    std::size_t length = 0;
};
}  // namespace

static std::vector<Group> groups_of(const std::vector<Axis>& axes, const std::vector<std::vector<Value>>& values,
                                    const std::vector<std::vector<std::string>>& zips) {
    std::vector<Group> groups;
    std::vector<bool> placed(axes.size(), false);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        if (placed[i]) continue;
        Group g;
        auto zip = std::find_if(zips.begin(), zips.end(),
                                [&](const auto& z) { return std::find(z.begin(), z.end(), axes[i].name) != z.end(); });
        if (zip == zips.end()) {
            g.axes = {i};
        } else {
            for (const auto& n : *zip) g.axes.push_back(index_of(axes, n));
        }
        g.length = values[g.axes.front()].size();
        for (auto a : g.axes) {
            placed[a] = true;
            if (values[a].size() != g.length)
                throw UsageError("zipped axes '" + axes[g.axes.front()].name + "' and '" + axes[a].name +
                                 "' have different numbers of values (" + std::to_string(g.length) + " and " +
                                 std::to_string(values[a].size()) + "): override both, or --unzip");
        }
        groups.push_back(std::move(g));
    }
    return groups;
}

std::size_t Space::size_unconstrained() const {
    std::size_t n = 1;
    for (const auto& g : groups_of(axes_, values_, zips_)) {
        if (g.length != 0 && n > std::numeric_limits<std::size_t>::max() / g.length)
            return std::numeric_limits<std::size_t>::max();  // saturates rather than wrapping to a small size
        n *= g.length;
    }
    return n;
}

Space::Cursor::Cursor(const Space& space) : space_(&space) {
    // A few long ranges multiply to more points than a sweep can walk; say so instead.
    if (const std::size_t n = space.size_unconstrained(); n > kMaxPoints)
        throw UsageError(
            "the axes give " +
            (n == std::numeric_limits<std::size_t>::max() ? std::string("more than 2^64") : std::to_string(n)) +
            " points, more than " + std::to_string(kMaxPoints) + ": narrow the axes");
    for (auto& g : groups_of(space.axes_, space.values_, space.zips_)) {
        done_ = done_ || g.length == 0;
        groups_.push_back(std::move(g.axes));
        lengths_.push_back(g.length);
    }
    at_.assign(groups_.size(), 0);
}

std::optional<Params> Space::Cursor::next() {
    while (!done_) {
        Params p;
        for (std::size_t gi = 0; gi < groups_.size(); ++gi)
            for (auto a : groups_[gi]) p.set(space_->axes_[a].name, space_->values_[a][at_[gi]]);
        // Odometer: the last factor varies fastest.
        std::size_t gi = groups_.size();
        done_ = true;
        while (gi > 0) {
            --gi;
            if (++at_[gi] < lengths_[gi]) {
                done_ = false;
                break;
            }
            at_[gi] = 0;
        }
        if (!space_->presets_.empty()) {
            space_->apply_presets(p);
            if (!seen_.insert(p.canonical()).second) continue;
        }
        if (space_->validator_) space_->validator_(p);
        if (!space_->violated(p)) return p;
    }
    return std::nullopt;
}

std::vector<Params> Space::points() const {
    std::vector<Params> out;
    Cursor cursor(*this);
    while (auto p = cursor.next()) out.push_back(std::move(*p));
    return out;
}

bool Preset::applies_to(const Value& v) const {
    if (matches) return std::holds_alternative<std::string>(v) && matches(std::get<std::string>(v));
    return v == Value(value);
}

void Space::add_presets(const std::vector<Preset>& presets) {
    for (const auto& pr : presets) {
        const Axis& a = axes_[index_of(axes_, pr.axis)];
        if (!pr.matches) a.validate(pr.value);
        for (const auto& [name, v] : pr.sets.values()) axes_[index_of(axes_, name)].validate(v);
        presets_.push_back(pr);
    }
}

const Preset* Space::preset_for(const std::string& axis, const Value& v) const {
    for (const auto& pr : presets_)
        if (pr.axis == axis && pr.applies_to(v)) return &pr;
    return nullptr;
}

void Space::apply_presets(Params& p) const {
    std::set<std::string> axes_with_presets;
    for (const auto& pr : presets_) axes_with_presets.insert(pr.axis);
    for (const auto& axis : axes_with_presets)
        if (p.has(axis))
            if (const Preset* pr = preset_for(axis, p.at(axis)))
                for (const auto& [name, v] : pr->sets.values()) p.set(name, v);
}

std::vector<std::string> Space::preset_shadowed() const {
    std::vector<std::string> out;
    std::set<std::string> axes_with_presets;
    for (const auto& pr : presets_) axes_with_presets.insert(pr.axis);
    for (const auto& axis : axes_with_presets) {
        const auto& vals = values(axis);
        std::set<std::string> candidates;
        for (const auto& pr : presets_)
            if (pr.axis == axis)
                for (const auto& [name, v] : pr.sets.values()) candidates.insert(name);
        for (const auto& name : candidates) {
            const bool always_set = std::all_of(vals.begin(), vals.end(), [&](const Value& v) {
                const Preset* pr = preset_for(axis, v);
                return pr && pr->sets.has(name);
            });
            if (always_set && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
        }
    }
    return out;
}

void Space::check_not_shadowed(const std::string& name) const {
    const auto shadowed = preset_shadowed();
    if (std::find(shadowed.begin(), shadowed.end(), name) == shadowed.end()) return;
    const auto pr = std::find_if(presets_.begin(), presets_.end(), [&](const Preset& p) { return p.sets.has(name); });
    // The values of the preset's axis where `name` is swept: those of no preset, or of one
    // that leaves it alone.
    std::vector<std::string> free;
    for (const auto& v : axes_[index_of(axes_, pr->axis)].choices)
        if (const Preset* q = preset_for(pr->axis, Value(v)); !q || !q->sets.has(name)) free.push_back(v);
    for (const auto& q : presets_)
        if (q.axis == pr->axis && !q.sets.has(name) && std::find(free.begin(), free.end(), q.value) == free.end())
            free.push_back(q.value);
    std::string list;
    for (const auto& v : free) list += (list.empty() ? "" : ",") + v;
    throw UsageError("axis '" + name + "' has no effect: every " + pr->axis + " swept is a preset that sets it" +
                     (list.empty() ? std::string() : " (it applies to " + pr->axis + "=" + list + ")"));
}

const Constraint* Space::violated(const Params& p) const {
    for (const auto& c : constraints_)
        if (!c.allows(p)) return &c;
    return nullptr;
}

Params Space::project(const Params& p, AxisRole r) const {
    Params out;
    for (const auto& a : axes_)
        if (a.role == r && p.has(a.name)) out.set(a.name, p.at(a.name));
    return out;
}

std::vector<std::string> zip_names(std::string_view list) {
    std::vector<std::string> names;
    std::string cur;
    for (const char ch : list) {
        if (ch != ',') {
            cur += ch;
        } else if (!cur.empty()) {
            names.push_back(std::move(cur));
            cur.clear();
        }
    }
    if (!cur.empty()) names.push_back(std::move(cur));
    return names;
}

}  // namespace memwall
