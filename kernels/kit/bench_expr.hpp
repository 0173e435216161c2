// Expressions of a benchmark's axes, as its array sizes, input ranges, bytes and FLOPs are
// written: numbers, axis names, + - * / % and parentheses; / and % of integers are integer
// division, as in C.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace memwall::kit {

struct ExprValue {
    double value = 0;
    bool integral = true;
};

// The value of `expr` with names looked up by `axis` (nullopt: no such axis). Throws
// std::invalid_argument naming the expression when it is malformed or names an unknown axis.
ExprValue evaluate(const std::string& expr, const std::function<std::optional<ExprValue>(const std::string&)>& axis);

}  // namespace memwall::kit
