#include "results/import.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include "core/errors.hpp"
#include "results/import_formats.hpp"

namespace memwall {

namespace {

constexpr std::array<std::pair<ImportFormat, std::string_view>, 2> kFormatNames{{
    {ImportFormat::gbench, "gbench"},
    {ImportFormat::nvbench, "nvbench"},
}};

}  // namespace

std::string_view to_string(ImportFormat f) {
    for (const auto& [format, name] : kFormatNames)
        if (format == f) return name;
    return "unknown";
}

std::optional<ImportFormat> import_format_from(std::string_view s) {
    for (const auto& [format, name] : kFormatNames)
        if (name == s) return format;
    return std::nullopt;
}

namespace import_detail {

Value value_from_text(const std::string& text) {
    const char* end = text.data() + text.size();
    std::int64_t i = 0;
    if (auto [p, ec] = std::from_chars(text.data(), end, i); ec == std::errc{} && p == end) return i;
    double d = 0;
    if (auto [p, ec] = std::from_chars(text.data(), end, d); ec == std::errc{} && p == end && std::isfinite(d))
        return d;
    return text;
}

std::string string_or(const nlohmann::json& obj, const char* key, const std::string& fallback) {
    if (!obj.is_object()) return fallback;
    const auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : fallback;
}

bool bool_or(const nlohmann::json& obj, const char* key, bool fallback) {
    if (!obj.is_object()) return fallback;
    const auto it = obj.find(key);
    return it != obj.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

CaseRecord imported_case(CaseKey key, std::vector<std::vector<double>> samples, const std::string& origin) {
    CaseRecord c;
    c.key = std::move(key);
    c.status = CaseStatus::unchecked;
    c.samples = std::move(samples);
    c.message = origin + "; imported, not checked against a reference";
    return c;
}

std::map<std::string, std::string> imported_tags(ImportFormat format, const std::string& source) {
    return {{"imported", std::string(to_string(format))}, {"imported_from", source}};
}

}  // namespace import_detail

ImportedRun parse_import(ImportFormat format, const std::string& text, const std::string& source) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for a number past a double
        throw InputError(source + ": not JSON (" + e.what() + ")");
    }
    ImportedRun run = format == ImportFormat::gbench ? import_detail::parse_gbench(doc, source)
                                                     : import_detail::parse_nvbench(doc, source);
    if (run.cases.empty()) throw InputError(source + ": holds no benchmark result");
    return run;
}

std::int64_t store_imported_run(Store& store, const ImportedRun& imported) {
    const std::int64_t id = store.begin_run(imported.run);
    std::vector<CaseRecord> cases = imported.cases;
    for (CaseRecord& c : cases) c.run_id = id;
    store.replace_cases(cases);
    store.finish_run(id, RunStatus::complete);
    return id;
}

}  // namespace memwall
