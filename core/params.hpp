// Parameter values and points of a parameter space.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>

#include <nlohmann/json_fwd.hpp>

namespace memwall {

// An axis value: integers (also booleans as 0/1), reals, or strings (enums).
using Value = std::variant<std::int64_t, double, std::string>;

std::string to_string(const Value& v);

// A point: axis name -> value. Ordered, so its JSON form is canonical and can key a case.
class Params {
  public:
    Params() = default;

    void set(const std::string& name, Value v) { values_[name] = std::move(v); }
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    const Value& at(const std::string& name) const;

    std::int64_t integer(const std::string& name) const;
    double real(const std::string& name) const;  // integers widen to double
    const std::string& str(const std::string& name) const;

    const std::map<std::string, Value>& values() const { return values_; }
    bool empty() const { return values_.empty(); }

    // Canonical compact JSON ({"a":1,"b":"x"} with sorted keys): the identity of a case.
    std::string canonical() const;
    nlohmann::json to_json() const;
    static Params from_json(const nlohmann::json& j);  // throws InputError
    // "b=1,h=8,s_q=512": for names and tables.
    std::string label() const;

    // Values of `other` added over this one's.
    Params merged(const Params& other) const;

    friend bool operator==(const Params&, const Params&) = default;

  private:
    std::map<std::string, Value> values_;
};

}  // namespace memwall
