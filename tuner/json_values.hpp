// Helpers shared by the importers: JSON scalars as parameter values, ordered value lists,
// and parse errors as one line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/params.hpp"

namespace memwall::importer {

// A JSON number, boolean (as 0/1) or string as a Value; nullopt for anything else.
std::optional<Value> value_of(const nlohmann::json& j);

// Numeric values compare by number (so 2 and 2.0 are one value), strings by text.
bool same_value(const Value& a, const Value& b);
// Numbers before strings, numbers ascending, strings in byte order.
bool value_less(const Value& a, const Value& b);

// The index of `v` in `values` by same_value, or nullopt.
std::optional<std::size_t> index_of(const std::vector<Value>& values, const Value& v);

// The number or string at `key` of `obj`, or `fallback` when it is absent; throws InputError
// "<where>: "<key>" must be a number|string, not ..." for any other type, so the message names
// the key (nlohmann's own says only which type it expected).
double number_or(const nlohmann::json& obj, const char* key, double fallback, const std::string& where);
std::string string_or(const nlohmann::json& obj, const char* key, const std::string& fallback,
                      const std::string& where);

// nlohmann's message without its "[json.exception...] " prefix.
std::string short_message(const nlohmann::json::exception& e);

}  // namespace memwall::importer
