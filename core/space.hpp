// A parameter space: axes (problem and tunable), zipped groups, and constraints.
#pragma once

#include <functional>
#include <string>
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
    void clear_zips() { zips_.clear(); }
    const std::vector<Value>& values(const std::string& name) const;

    // The most points a space expands to.
    static constexpr std::size_t max_points = 1'000'000;
    // Every point of the cartesian product over ungrouped axes and zipped groups, in axis
    // order, with constrained points removed. Throws UsageError when zipped lists differ in
    // length or there are more than max_points before constraints.
    std::vector<Params> points() const;
    // Number of points before constraints (saturating at SIZE_MAX).
    std::size_t size_unconstrained() const;
    // The first constraint `p` violates, or nullptr.
    const Constraint* violated(const Params& p) const;

    // The values of `p` that belong to axes of role `r`.
    Params project(const Params& p, AxisRole r) const;

private:
    std::vector<Axis> axes_;
    std::vector<std::vector<Value>> values_;  // parallel to axes_
    std::vector<std::vector<std::string>> zips_;
    std::vector<Constraint> constraints_;
};

}  // namespace memwall
