#include "kernels/kit/bench_expr.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace memwall::kit {

namespace {

class Parser {
  public:
    Parser(const std::string& text, const std::function<std::optional<ExprValue>(const std::string&)>& axis)
        : s_(text), axis_(axis) {}

    ExprValue whole() {
        const ExprValue v = sum();
        skip();
        if (at_ < s_.size()) fail("unexpected '" + s_.substr(at_, 1) + "'");
        return v;
    }

  private:
    ExprValue sum() {
        ExprValue v = product();
        for (char op = peek(); op == '+' || op == '-'; op = peek()) {
            ++at_;
            const ExprValue r = product();
            v = {op == '+' ? v.value + r.value : v.value - r.value, v.integral && r.integral};
        }
        return v;
    }
    ExprValue product() {
        ExprValue v = factor();
        for (char op = peek(); op == '*' || op == '/' || op == '%'; op = peek()) {
            ++at_;
            const ExprValue r = factor();
            const bool integral = v.integral && r.integral;
            if (op == '*') {
                v = {v.value * r.value, integral};
                continue;
            }
            if (r.value == 0) fail("division by zero");
            if (op == '%') {
                if (!integral) fail("% of a non-integer");
                v = {std::fmod(v.value, r.value), true};
            } else {
                v = {integral ? std::trunc(v.value / r.value) : v.value / r.value, integral};
            }
        }
        return v;
    }
    ExprValue factor() {
        const char c = peek();
        if (c == '-') {
            ++at_;
            const ExprValue v = factor();
            return {-v.value, v.integral};
        }
        if (c == '(') {
            ++at_;
            const ExprValue v = sum();
            if (peek() != ')') fail("missing ')'");
            ++at_;
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const char* begin = s_.c_str() + at_;
            char* end = nullptr;
            const double d = std::strtod(begin, &end);
            const std::string token(begin, static_cast<const char*>(end));
            at_ += token.size();
            return {d, token.find_first_of(".eE") == std::string::npos};
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = at_;
            while (at_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[at_])) || s_[at_] == '_')) ++at_;
            const std::string name = s_.substr(start, at_ - start);
            if (const auto v = axis_(name)) return *v;
            fail("no axis '" + name + "'");
        }
        fail(c ? "unexpected '" + std::string(1, c) + "'" : std::string("it ends early"));
    }
    char peek() {
        skip();
        return at_ < s_.size() ? s_[at_] : '\0';
    }
    void skip() {
        while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
    }
    [[noreturn]] void fail(const std::string& why) const {
        throw std::invalid_argument("expression '" + s_ + "': " + why);
    }

    const std::string& s_;
    const std::function<std::optional<ExprValue>(const std::string&)>& axis_;
    std::size_t at_ = 0;
};

}  // namespace

ExprValue evaluate(const std::string& expr, const std::function<std::optional<ExprValue>(const std::string&)>& axis) {
    return Parser(expr, axis).whole();
}

}  // namespace memwall::kit
