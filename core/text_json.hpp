// Text that may not be UTF-8 in JSON. A path is bytes (a file may be named with byte 0xFF), but a
// JSON string is UTF-8, and nlohmann's dump throws on anything else (type_error.316). Such text
// is written as {"bytes": "<hex>"} and read back exactly; UTF-8 text stays a plain string, so
// what was stored before reads as it did.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace memwall {

bool is_utf8(std::string_view s);

nlohmann::json text_to_json(const std::string& s);
// The text `j` holds, a string or {"bytes": hex}; nothing for any other JSON value.
std::optional<std::string> text_from_json(const nlohmann::json& j);

}  // namespace memwall
