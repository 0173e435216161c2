#include "gui/core/case_data.hpp"

#include <QStringBuilder>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace memwall::gui {

namespace {

AxisKind kind_of(const Value& v) {
    if (std::holds_alternative<std::int64_t>(v)) return AxisKind::integer;
    if (std::holds_alternative<double>(v)) return AxisKind::real;
    return AxisKind::string;
}

void append_params(std::vector<Param>& out, const std::string& family, const std::string& json,
                   const std::vector<RunAxis>& axes, bool tunable, const char* what) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json.empty() ? "{}" : json);
    } catch (const nlohmann::json::parse_error&) {
        throw InputError(std::string("case ") + what + " is not valid JSON: " + json);
    }
    if (!j.is_object()) throw InputError(std::string("case ") + what + " is not a JSON object: " + json);
    const Params params = Params::from_json(j);
    for (const auto& [name, value] : params.values()) {
        Param p{QString::fromStdString(name), value, kind_of(value), tunable};
        for (const RunAxis& a : axes)
            if (a.family == family && a.name == name) p.kind = a.kind;
        out.push_back(std::move(p));
    }
}

}  // namespace

QString Param::text() const { return QString::fromStdString(to_string(value)); }

std::optional<double> Param::number() const {
    if (kind == AxisKind::string) return std::nullopt;
    if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&value)) return *d;
    return std::nullopt;
}

QString CaseRow::param(const QString& name) const {
    const Param* p = find_param(name);
    return p ? p->text() : QString();
}

const Param* CaseRow::find_param(const QString& name) const {
    for (const Param& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

const RooflineLevel* CaseRow::level(const std::string& name) const { return point.at(name); }

std::vector<Param> parse_params(const std::string& family, const std::string& problem_json,
                                const std::string& config_json, const std::vector<RunAxis>& axes) {
    std::vector<Param> out;
    append_params(out, family, problem_json, axes, false, "problem");
    append_params(out, family, config_json, axes, true, "config");
    return out;
}

void complete_case_row(CaseRow& row, const std::vector<Counter>& counters, const Ceilings& ceilings,
                       const std::vector<RunAxis>& axes) {
    row.family = QString::fromStdString(row.key.family);
    row.variant = QString::fromStdString(row.key.variant);
    row.backend = QString::fromStdString(row.key.backend);
    row.params = parse_params(row.key.family, row.key.problem, row.key.config, axes);
    QString problem, config;
    for (const Param& p : row.params) {
        QString& text = p.tunable ? config : problem;
        if (!text.isEmpty()) text += QLatin1Char(' ');
        text += p.name + QLatin1Char('=') + p.text();
    }
    row.params_text = config.isEmpty() ? problem : problem + QStringLiteral(" | ") + config;
    row.search_text = row.family + QLatin1Char('/') + row.variant + QLatin1Char('/') + row.backend + QLatin1Char(' ') +
                      row.params_text + QLatin1Char(' ') + qstr(to_string(row.status)) + QLatin1Char(' ') + row.message;
    if (row.timed()) row.point = place_on_roofline(counters, row.median, ceilings.for_backend(row.key.backend));
}

QString case_label(const CaseRow& row) {
    // One allocation: the compare table labels every case of a run.
    return row.family % QLatin1Char('/') % row.variant % QLatin1Char('/') % row.backend % QLatin1Char(' ') %
           row.params_text;
}

}  // namespace memwall::gui
