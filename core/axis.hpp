// Axes of a parameter space and the parsing of user overrides ("a,b,c", "lo:hi:step",
// "pow2:lo:hi").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.hpp"

namespace memwall {

enum class AxisKind { integer, real, boolean, string };
// Problem axes say what is computed, tunable axes how; the tuner searches only the latter.
enum class AxisRole { problem, tunable };

struct Axis {
    std::string name;
    std::string description;
    AxisKind kind = AxisKind::integer;
    AxisRole role = AxisRole::problem;
    std::vector<Value> defaults;       // the values a sweep uses unless overridden
    std::optional<double> min, max;    // inclusive bounds for numeric axes
    std::vector<std::string> choices;  // allowed values of a string axis (empty: any)

    // Validates one value against kind, bounds and choices; throws UsageError.
    void validate(const Value& v) const;
};

// Fluent builders, so a family's axes read as a table.
Axis int_axis(std::string name, std::vector<std::int64_t> defaults, std::string description);
Axis real_axis(std::string name, std::vector<double> defaults, std::string description);
Axis bool_axis(std::string name, std::vector<bool> defaults, std::string description);
Axis enum_axis(std::string name, std::vector<std::string> choices, std::vector<std::string> defaults,
               std::string description);
[[nodiscard]] Axis bounded(Axis a, double min, double max);
Axis tunable(Axis a);

// Parses the value list of one override for `axis`:
//   "a,b,c"        explicit list
//   "lo:hi:step"   inclusive arithmetic range (integer and real axes)
//   "pow2:lo:hi"   powers of two from lo to hi inclusive (integer axes; lo, hi powers of two)
// Booleans accept 0/1/true/false. Every value is validated; throws UsageError with one line.
std::vector<Value> parse_axis_values(const Axis& axis, std::string_view text);

// Splits "name=spec"; throws UsageError when there is no '=' or the name is empty.
std::pair<std::string, std::string> split_override(std::string_view text);

std::string_view to_string(AxisKind k);  // "int", "real", "bool", "enum"
std::string_view to_string(AxisRole r);  // "problem", "tunable"
std::optional<AxisKind> axis_kind_from(std::string_view s);
std::optional<AxisRole> axis_role_from(std::string_view s);

}  // namespace memwall
