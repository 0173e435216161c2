#include "core/axis.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <set>

#include "core/errors.hpp"

namespace memwall {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    for (;;) {
        auto pos = s.find(sep);
        parts.push_back(trim(s.substr(0, pos)));
        if (pos == std::string_view::npos) return parts;
        s.remove_prefix(pos + 1);
    }
}

// Built by appending: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(...).
std::string quoted(std::string_view t) {
    std::string q(1, '\'');
    q.append(t);
    q += '\'';
    return q;
}

[[noreturn]] void fail(const Axis& a, const std::string& what) { throw UsageError("axis '" + a.name + "': " + what); }

// An integral bound as an integer ("16777216", not "1.67772e+07").
std::string bound_text(double b) {
    if (std::abs(b) < 9.2e18 && b == std::floor(b)) return std::to_string(static_cast<std::int64_t>(b));
    return to_string(Value{b});
}

std::int64_t parse_int(const Axis& a, std::string_view t) {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (!t.empty() && ec == std::errc::result_out_of_range && end == t.data() + t.size()) {
        const std::string lo = a.min ? bound_text(*a.min) : std::to_string(std::numeric_limits<std::int64_t>::min());
        const std::string hi = a.max ? bound_text(*a.max) : std::to_string(std::numeric_limits<std::int64_t>::max());
        fail(a, quoted(t) + " is out of range (" + lo + ".." + hi + ")");
    }
    if (t.empty() || ec != std::errc{} || end != t.data() + t.size()) fail(a, quoted(t) + " is not an integer");
    return v;
}

double parse_real(const Axis& a, std::string_view t) {
    std::string s(t);
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) fail(a, quoted(s) + " is not a number");
    if (!std::isfinite(v)) fail(a, quoted(s) + " is not a finite number a double holds");
    return v;
}

Value parse_one(const Axis& a, std::string_view t) {
    switch (a.kind) {
        case AxisKind::integer: return parse_int(a, t);
        case AxisKind::real: return parse_real(a, t);
        case AxisKind::boolean:
            if (t == "1" || t == "true") return std::int64_t{1};
            if (t == "0" || t == "false") return std::int64_t{0};
            fail(a, quoted(t) + " is not a boolean (0, 1, true, false)");
        case AxisKind::string:
            if (t.empty()) fail(a, "empty value");
            return std::string(t);
    }
    fail(a, "unknown axis kind");
}

std::string join(const std::vector<std::string>& xs) {
    std::string out;
    for (const auto& x : xs) {
        if (!out.empty()) out += ", ";
        out += x;
    }
    return out;
}

bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

constexpr std::size_t kMaxValues = 100000;

}  // namespace

std::string_view to_string(AxisKind k) {
    switch (k) {
        case AxisKind::integer: return "int";
        case AxisKind::real: return "real";
        case AxisKind::boolean: return "bool";
        case AxisKind::string: return "enum";
    }
    return "?";
}

std::string_view to_string(AxisRole r) { return r == AxisRole::problem ? "problem" : "tunable"; }

std::optional<AxisKind> axis_kind_from(std::string_view s) {
    for (AxisKind k : {AxisKind::integer, AxisKind::real, AxisKind::boolean, AxisKind::string})
        if (to_string(k) == s) return k;
    return std::nullopt;
}

std::optional<AxisRole> axis_role_from(std::string_view s) {
    for (AxisRole r : {AxisRole::problem, AxisRole::tunable})
        if (to_string(r) == s) return r;
    return std::nullopt;
}

void Axis::validate(const Value& v) const {
    if (kind == AxisKind::string) {
        const auto* s = std::get_if<std::string>(&v);
        if (!s) fail(*this, "expects a string value");
        if (!choices.empty() && std::find(choices.begin(), choices.end(), *s) == choices.end()) {
            fail(*this, quoted(*s) + " is not one of " + join(choices));
        }
        return;
    }
    double x = 0;
    if (const auto* i = std::get_if<std::int64_t>(&v)) {
        x = static_cast<double>(*i);
    } else if (const auto* d = std::get_if<double>(&v); d && kind == AxisKind::real) {
        x = *d;
    } else {
        fail(*this, "expects a " + std::string(to_string(kind)) + " value");
    }
    if (kind == AxisKind::boolean && x != 0 && x != 1) fail(*this, to_string(v) + " is not 0 or 1");
    if (min && x < *min) fail(*this, to_string(v) + " is below the minimum " + to_string(Value{*min}));
    if (max && x > *max) fail(*this, to_string(v) + " is above the maximum " + to_string(Value{*max}));
    if (!choices.empty()) {
        if (std::find(choices.begin(), choices.end(), to_string(v)) == choices.end()) {
            fail(*this, to_string(v) + " is not one of " + join(choices));
        }
    }
}

namespace {
Axis make_axis(std::string name, std::string description, AxisKind kind) {
    Axis a;
    a.name = std::move(name);
    a.description = std::move(description);
    a.kind = kind;
    return a;
}
}  // namespace

Axis int_axis(std::string name, std::vector<std::int64_t> defaults, std::string description) {
    Axis a = make_axis(std::move(name), std::move(description), AxisKind::integer);
    a.defaults.assign(defaults.begin(), defaults.end());
    return a;
}

Axis real_axis(std::string name, std::vector<double> defaults, std::string description) {
    Axis a = make_axis(std::move(name), std::move(description), AxisKind::real);
    a.defaults.assign(defaults.begin(), defaults.end());
    return a;
}

Axis bool_axis(std::string name, std::vector<bool> defaults, std::string description) {
    Axis a = make_axis(std::move(name), std::move(description), AxisKind::boolean);
    for (bool v : defaults) a.defaults.emplace_back(std::int64_t{v ? 1 : 0});
    return a;
}

Axis enum_axis(std::string name, std::vector<std::string> choices, std::vector<std::string> defaults,
               std::string description) {
    Axis a = make_axis(std::move(name), std::move(description), AxisKind::string);
    a.choices = std::move(choices);
    a.defaults.assign(std::make_move_iterator(defaults.begin()), std::make_move_iterator(defaults.end()));
    return a;
}

Axis bounded(Axis a, double min, double max) {
    a.min = min;
    a.max = max;
    return a;
}

Axis tunable(Axis a) {
    a.role = AxisRole::tunable;
    return a;
}

std::vector<Value> parse_axis_values(const Axis& a, std::string_view text) {
    text = trim(text);
    if (text.empty()) fail(a, "no values given");
    std::vector<Value> out;
    auto parts = split(text, ':');
    if (parts.size() == 3 && parts[0] == "pow2") {
        if (a.kind != AxisKind::integer) fail(a, "pow2:lo:hi needs an integer axis");
        std::int64_t lo = parse_int(a, parts[1]), hi = parse_int(a, parts[2]);
        if (!is_pow2(lo) || !is_pow2(hi))
            fail(a, "pow2:" + std::to_string(lo) + ":" + std::to_string(hi) + " needs powers of two");
        if (lo > hi) fail(a, "pow2 range is empty (" + std::to_string(lo) + " > " + std::to_string(hi) + ")");
        for (std::int64_t v = lo; v <= hi; v *= 2) out.emplace_back(v);
    } else if (parts.size() == 3) {
        if (a.kind == AxisKind::integer) {
            std::int64_t lo = parse_int(a, parts[0]), hi = parse_int(a, parts[1]), step = parse_int(a, parts[2]);
            if (step <= 0) fail(a, "range step must be positive");
            if (lo > hi) fail(a, "range is empty (" + std::to_string(lo) + " > " + std::to_string(hi) + ")");
            if (static_cast<std::uint64_t>((hi - lo) / step) >= kMaxValues) fail(a, "range has too many values");
            for (std::int64_t v = lo; v <= hi; v += step) out.emplace_back(v);
        } else if (a.kind == AxisKind::real) {
            double lo = parse_real(a, parts[0]), hi = parse_real(a, parts[1]), step = parse_real(a, parts[2]);
            if (step <= 0) fail(a, "range step must be positive");
            if (lo > hi) fail(a, "range is empty");
            double count = std::floor((hi - lo) / step + 1e-9) + 1;
            if (count > static_cast<double>(kMaxValues)) fail(a, "range has too many values");
            for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i)
                out.emplace_back(lo + static_cast<double>(i) * step);
        } else {
            fail(a, "lo:hi:step needs a numeric axis");
        }
    } else if (parts.size() != 1) {
        fail(a, quoted(text) + " is neither a list, lo:hi:step nor pow2:lo:hi");
    } else {
        for (auto t : split(text, ',')) out.push_back(parse_one(a, t));
    }
    std::set<Value> seen;  // not a pairwise check: a range of 100000 values took minutes
    for (const Value& v : out) {
        a.validate(v);
        if (!seen.insert(v).second) fail(a, "value " + to_string(v) + " given twice");
    }
    return out;
}

std::pair<std::string, std::string> split_override(std::string_view text) {
    auto eq = text.find('=');
    if (eq == std::string_view::npos) throw UsageError("--axis '" + std::string(text) + "': expected name=values");
    auto name = trim(text.substr(0, eq));
    if (name.empty()) throw UsageError("--axis '" + std::string(text) + "': the axis name is empty");
    return {std::string(name), std::string(text.substr(eq + 1))};
}

}  // namespace memwall
