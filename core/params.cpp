#include "core/params.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/text_json.hpp"

namespace memwall {

std::string to_string(const Value& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&v)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", *d);
        // Shortest form that reads back exactly.
        for (int prec = 1; prec < 17; ++prec) {
            char shorter[32];
            std::snprintf(shorter, sizeof shorter, "%.*g", prec, *d);
            if (std::strtod(shorter, nullptr) == *d) return shorter;
        }
        return buf;
    }
    return std::get<std::string>(v);
}

const Value& Params::at(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw std::out_of_range("parameter '" + name + "' is not set");
    return it->second;
}

std::int64_t Params::integer(const std::string& name) const {
    const Value& v = at(name);
    if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
    throw std::invalid_argument("parameter '" + name + "' is not an integer");
}

double Params::real(const std::string& name) const {
    const Value& v = at(name);
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&v)) return *d;
    throw std::invalid_argument("parameter '" + name + "' is not a number");
}

const std::string& Params::str(const std::string& name) const {
    const Value& v = at(name);
    if (const auto* s = std::get_if<std::string>(&v)) return *s;
    throw std::invalid_argument("parameter '" + name + "' is not a string");
}

nlohmann::json Params::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& kv : values_) {  // no structured binding: clang 14 cannot capture one
        auto& slot = j[kv.first];
        if (const auto* s = std::get_if<std::string>(&kv.second))
            slot = text_to_json(*s);  // a path may be any bytes
        else
            std::visit([&slot](const auto& x) { slot = x; }, kv.second);
    }
    return j;
}

std::string Params::canonical() const { return to_json().dump(); }

Params Params::from_json(const nlohmann::json& j) {
    if (!j.is_object()) throw InputError("parameters are not a JSON object: " + j.dump());
    Params p;
    for (const auto& [k, v] : j.items()) {
        if (v.is_number_integer()) {
            p.set(k, v.get<std::int64_t>());
        } else if (v.is_number_float()) {
            p.set(k, v.get<double>());
        } else if (v.is_boolean()) {
            p.set(k, std::int64_t{v.get<bool>() ? 1 : 0});
        } else if (const auto text = text_from_json(v)) {
            p.set(k, *text);
        } else {
            throw InputError("parameter '" + k + "' has an unsupported JSON value: " + v.dump());
        }
    }
    return p;
}

std::string Params::label() const {
    std::string out;
    for (const auto& [k, v] : values_) {
        if (!out.empty()) out += ',';
        out += k;
        out += '=';
        out += to_string(v);
    }
    return out;
}

Params Params::merged(const Params& other) const {
    Params p = *this;
    for (const auto& [k, v] : other.values_) p.values_[k] = v;
    return p;
}

}  // namespace memwall
