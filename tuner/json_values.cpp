#include "tuner/json_values.hpp"

#include "core/errors.hpp"

namespace memwall::importer {

std::optional<Value> value_of(const nlohmann::json& j) {
    if (j.is_boolean()) return Value{std::int64_t{j.get<bool>() ? 1 : 0}};
    if (j.is_number_integer()) return Value{j.get<std::int64_t>()};
    if (j.is_number_float()) return Value{j.get<double>()};
    if (j.is_string()) return Value{j.get<std::string>()};
    return std::nullopt;
}

static std::optional<double> number(const Value& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&v)) return *d;
    return std::nullopt;
}

bool same_value(const Value& a, const Value& b) {
    auto x = number(a), y = number(b);
    if (x && y) return *x == *y;
    if (x || y) return false;
    return std::get<std::string>(a) == std::get<std::string>(b);
}

bool value_less(const Value& a, const Value& b) {
    auto x = number(a), y = number(b);
    if (x && y) return *x < *y;
    if (x || y) return x.has_value();
    return std::get<std::string>(a) < std::get<std::string>(b);
}

std::optional<std::size_t> index_of(const std::vector<Value>& values, const Value& v) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (same_value(values[i], v)) return i;
    return std::nullopt;
}

double number_or(const nlohmann::json& obj, const char* key, double fallback, const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end()) return fallback;
    if (!it->is_number()) throw InputError(where + ": \"" + key + "\" must be a number, not " + it->dump());
    return it->get<double>();
}

std::string string_or(const nlohmann::json& obj, const char* key, const std::string& fallback,
                      const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end()) return fallback;
    if (!it->is_string()) throw InputError(where + ": \"" + key + "\" must be a string, not " + it->dump());
    return it->get<std::string>();
}

std::string short_message(const nlohmann::json::exception& e) {
    std::string m = e.what();
    if (!m.empty() && m.front() == '[') {
        auto close = m.find("] ");
        if (close != std::string::npos) m.erase(0, close + 2);
    }
    return m;
}

}  // namespace memwall::importer
