#include "gui/core/case_data.hpp"

#include <QStringBuilder>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace memwall::gui {

namespace {

QString scalar_text(const nlohmann::json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_boolean()) return v.get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
    return QString::fromStdString(v.dump());
}

void append_params(std::vector<Param>& out, const std::string& json, bool tunable, const char* what) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json.empty() ? "{}" : json);
    } catch (const nlohmann::json::parse_error&) {
        throw InputError(std::string("case ") + what + " is not valid JSON: " + json);
    }
    if (!j.is_object()) throw InputError(std::string("case ") + what + " is not a JSON object: " + json);
    for (auto it = j.begin(); it != j.end(); ++it)
        out.push_back(Param{QString::fromStdString(it.key()), scalar_text(it.value()), tunable});
}

}  // namespace

QString CaseRow::param(const QString& name) const {
    for (const Param& p : params)
        if (p.name == name) return p.value;
    return {};
}

const RooflineLevel* CaseRow::level(const std::string& name) const {
    for (const RooflineLevel& l : point.levels)
        if (l.level == name) return &l;
    return nullptr;
}

std::vector<Param> parse_params(const std::string& problem_json, const std::string& config_json) {
    std::vector<Param> out;
    append_params(out, problem_json, false, "problem");
    append_params(out, config_json, true, "config");
    return out;
}

void complete_case_row(CaseRow& row, const std::vector<Counter>& counters, const Ceilings& ceilings) {
    row.family = QString::fromStdString(row.key.family);
    row.variant = QString::fromStdString(row.key.variant);
    row.backend = QString::fromStdString(row.key.backend);
    row.params = parse_params(row.key.problem, row.key.config);
    QString problem, config;
    for (const Param& p : row.params) {
        QString& text = p.tunable ? config : problem;
        if (!text.isEmpty()) text += QLatin1Char(' ');
        text += p.name + QLatin1Char('=') + p.value;
    }
    row.params_text = config.isEmpty() ? problem : problem + QStringLiteral(" | ") + config;
    row.search_text = row.family + QLatin1Char('/') + row.variant + QLatin1Char('/') + row.backend +
                      QLatin1Char(' ') + row.params_text + QLatin1Char(' ') +
                      qstr(to_string(row.status)) + QLatin1Char(' ') + row.message;
    if (row.timed()) row.point = place_on_roofline(counters, row.median, ceilings);
}

QString case_label(const CaseRow& row) {
    // One allocation: the compare table labels every case of a run.
    return row.family % QLatin1Char('/') % row.variant % QLatin1Char('/') % row.backend % QLatin1Char(' ') %
           row.params_text;
}

}  // namespace memwall::gui
