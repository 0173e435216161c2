#include "gui/core/parameter_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace memwall::gui {

namespace {

// The values parameter `name` takes among `rows`, as text: in numeric order when the axis is
// numeric (its kind says so; nothing is guessed from the text), else in text order.
QStringList axis_values(const std::vector<const CaseRow*>& rows, const QString& name) {
    std::map<QString, std::optional<double>> seen;
    for (const CaseRow* r : rows)
        if (const Param* p = r->find_param(name)) seen.emplace(p->text(), p->number());
    QStringList out;
    for (const auto& [text, number] : seen) out << text;
    const bool numeric = std::all_of(seen.begin(), seen.end(), [](const auto& v) { return v.second.has_value(); });
    if (numeric)
        std::stable_sort(out.begin(), out.end(),
                         [&](const QString& a, const QString& b) { return *seen[a] < *seen[b]; });
    return out;
}

std::optional<double> metric_of(const CaseRow& r, MapMetric m) {
    if (!r.timed() || !ran(r.status)) return std::nullopt;
    if (m == MapMetric::time) return r.median;
    if (!r.point.valid) return std::nullopt;
    return r.point.percent_of_bound;
}

bool better(double a, double b, MapMetric m) { return m == MapMetric::time ? a < b : a > b; }

}  // namespace

QString metric_text(MapMetric m) {
    return m == MapMetric::time ? QStringLiteral("median time") : QStringLiteral("% of roof");
}

QStringList varying_params(const std::vector<const CaseRow*>& rows) {
    QStringList tunables, problem;
    std::map<QString, std::set<QString>> seen;
    for (const CaseRow* r : rows) {
        for (const Param& p : r->params) {
            if (!seen.count(p.name)) (p.tunable ? tunables : problem) << p.name;
            seen[p.name].insert(p.text());
        }
    }
    QStringList out;
    for (const QString& n : tunables + problem)
        if (seen[n].size() > 1) out << n;
    return out;
}

ParameterMap build_parameter_map(const std::vector<const CaseRow*>& rows, const QString& x_axis, const QString& y_axis,
                                 MapMetric metric) {
    if (x_axis == y_axis) throw std::invalid_argument("a parameter map needs two different axes");
    ParameterMap m;
    m.x_axis = x_axis;
    m.y_axis = y_axis;
    m.metric = metric;
    std::vector<const CaseRow*> both;
    for (const CaseRow* r : rows)
        if (r->find_param(x_axis) && r->find_param(y_axis)) both.push_back(r);
    m.x_values = axis_values(both, x_axis);
    m.y_values = axis_values(both, y_axis);
    const auto n = static_cast<std::size_t>(m.nx() * m.ny());
    m.cells.assign(n, std::numeric_limits<double>::quiet_NaN());
    m.cell_cases.assign(n, nullptr);
    for (const CaseRow* r : rows) {
        const auto v = metric_of(*r, metric);
        if (!v) continue;
        const int x = static_cast<int>(m.x_values.indexOf(r->param(x_axis)));
        const int y = static_cast<int>(m.y_values.indexOf(r->param(y_axis)));
        if (x < 0 || y < 0) continue;
        const auto i = static_cast<std::size_t>(y * m.nx() + x);
        if (std::isnan(m.cells[i]) || better(*v, m.cells[i], metric)) {
            m.cells[i] = *v;
            m.cell_cases[i] = r;
        }
    }
    for (int y = 0; y < m.ny(); ++y)
        for (int x = 0; x < m.nx(); ++x) {
            const double v = m.value(x, y);
            if (std::isnan(v)) continue;
            if (!m.best || better(v, m.value(m.best->first, m.best->second), metric)) m.best = std::make_pair(x, y);
        }
    return m;
}

}  // namespace memwall::gui
