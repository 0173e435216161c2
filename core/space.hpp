// A parameter space: axes (problem and tunable), zipped groups, and constraints.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/axis.hpp"
#include "core/params.hpp"

namespace memwall {

// A constraint prunes points that are invalid (a tile larger than the problem, a
// shared-memory budget, ...). `allows` sees the whole point (problem and tunables).
struct Constraint {
    std::string description;
    std::function<bool(const Params&)> allows;
};

// A named value of a string axis that sets other axes: layer=conv8 sets C=64, H=112, ... The
// point keeps the preset's name beside the values it set; a value that names no preset (custom)
// leaves the other axes as swept. A preset with `matches` applies to every value it accepts
// instead (spgemm's matrix=PATH, for any path, sets the generators' axes aside); `value` then
// only names it in listings.
struct Preset {
    std::string axis;
    std::string value;
    Params sets;
    std::function<bool(const std::string&)> matches;

    bool applies_to(const Value& v) const;
};

// Rejects a malformed problem point (a filter larger than its padded input, ...) with a
// UsageError: unlike a constraint, which prunes points a sweep may legitimately reach.
using Validator = std::function<void(const Params&)>;

class Space {
  public:
    Space() = default;
    Space(std::vector<Axis> axes, std::vector<Constraint> constraints = {});

    const std::vector<Axis>& axes() const { return axes_; }
    const std::vector<Constraint>& constraints() const { return constraints_; }
    const Axis* find(const std::string& name) const;

    // Replaces the values swept for `name`; throws UsageError for an unknown axis.
    void set_values(const std::string& name, std::vector<Value> values);
    // Applies a "name=spec" override (see parse_axis_values).
    void apply_override(std::string_view text);
    // Ties axes so they advance together (their value lists must have equal length).
    // An axis belongs to at most one group; throws UsageError.
    void zip(const std::vector<std::string>& names);
    const std::vector<std::vector<std::string>>& zipped() const { return zips_; }
    // Presets apply to every point before validation and constraints; points they make
    // identical are kept once.
    void add_presets(const std::vector<Preset>& presets);
    const std::vector<Preset>& presets() const { return presets_; }
    // Axes whose values no point uses, because a preset sets them at every value swept of the
    // preset's axis: an override of them would be silently ignored.
    std::vector<std::string> preset_shadowed() const;
    // Throws UsageError when the user's override of `name` would be ignored (preset_shadowed).
    void check_not_shadowed(const std::string& name) const;
    void set_validator(Validator v) { validator_ = std::move(v); }
    void clear_zips() { zips_.clear(); }
    const std::vector<Value>& values(const std::string& name) const;

    // The most points a space expands to.
    static constexpr std::size_t kMaxPoints = 1'000'000;

    // The points one at a time, so a sweep of many points is walked without being held: the
    // cartesian product over ungrouped axes and zipped groups, in axis order (a group at its
    // first axis, so problem axes, which come first, vary slowest), completed by the presets
    // (points they make identical are kept once), validated, with constrained points removed.
    class Cursor {
      public:
        // Throws UsageError when zipped lists differ in length or there are more than
        // kMaxPoints before constraints. The space must outlive the cursor.
        explicit Cursor(const Space& space);
        // The next point; nullopt after the last. Throws UsageError when the validator rejects it.
        std::optional<Params> next();

      private:
        const Space* space_;
        std::vector<std::vector<std::size_t>> groups_;  // the axes of each factor
        std::vector<std::size_t> lengths_, at_;
        bool done_ = false;
        std::set<std::string> seen_;  // canonical points, kept only where presets can repeat one
    };
    // Every point, as the cursor gives them.
    std::vector<Params> points() const;
    // Number of points before constraints (saturating at SIZE_MAX).
    std::size_t size_unconstrained() const;
    // The first constraint `p` violates, or nullptr.
    const Constraint* violated(const Params& p) const;

    // The values of `p` that belong to axes of role `r`.
    Params project(const Params& p, AxisRole r) const;

  private:
    void apply_presets(Params& p) const;
    const Preset* preset_for(const std::string& axis, const Value& v) const;

    std::vector<Axis> axes_;
    std::vector<std::vector<Value>> values_;  // parallel to axes_
    std::vector<std::vector<std::string>> zips_;
    std::vector<Constraint> constraints_;
    std::vector<Preset> presets_;
    Validator validator_;
};

// The axis names of a zip as typed after --zip, "a,b": split at the commas, empty names (a
// doubled or trailing comma) skipped; Space::zip judges the names.
std::vector<std::string> zip_names(std::string_view list);

}  // namespace memwall
