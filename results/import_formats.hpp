// The parsers behind parse_import (results/import.hpp), one file per format, and what they
// share. Each throws InputError naming `source`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/params.hpp"
#include "results/import.hpp"

namespace memwall::import_detail {

ImportedRun parse_gbench(const nlohmann::json& doc, const std::string& source);
ImportedRun parse_nvbench(const nlohmann::json& doc, const std::string& source);

// An integer, else a finite real, else the text itself: a value read from a label or a string
// field.
Value value_from_text(const std::string& text);

// A member of a JSON object when it has the type asked for, else the fallback: files from other
// harnesses are read without trusting their types.
std::string string_or(const nlohmann::json& obj, const char* key, const std::string& fallback);
bool bool_or(const nlohmann::json& obj, const char* key, bool fallback);

// An unchecked case of `samples` (seconds; one vector per repetition), its message saying where
// it came from and that no reference checked it.
CaseRecord imported_case(CaseKey key, std::vector<std::vector<double>> samples, const std::string& origin);

// The run's tags: `imported` (the format) and the file it came from.
std::map<std::string, std::string> imported_tags(ImportFormat format, const std::string& source);

}  // namespace memwall::import_detail
