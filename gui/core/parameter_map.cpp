#include "gui/core/parameter_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace memwall::gui {

namespace {

void sort_values(QStringList& values) {
    bool numeric = true;
    for (const QString& v : values) {
        bool ok = false;
        v.toDouble(&ok);
        numeric &= ok;
    }
    if (numeric)
        std::sort(values.begin(), values.end(), [](const QString& a, const QString& b) { return a.toDouble() < b.toDouble(); });
    else
        values.sort();
}

std::optional<double> metric_of(const CaseRow& r, MapMetric m) {
    if (!r.timed() || r.status != CaseStatus::ok) return std::nullopt;
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
            seen[p.name].insert(p.value);
        }
    }
    QStringList out;
    for (const QString& n : tunables + problem)
        if (seen[n].size() > 1) out << n;
    return out;
}

ParameterMap build_parameter_map(const std::vector<const CaseRow*>& rows, const QString& x_axis,
                                 const QString& y_axis, MapMetric metric) {
    if (x_axis == y_axis) throw std::invalid_argument("a parameter map needs two different axes");
    ParameterMap m;
    m.x_axis = x_axis;
    m.y_axis = y_axis;
    m.metric = metric;
    std::set<QString> xs, ys;
    for (const CaseRow* r : rows) {
        const QString x = r->param(x_axis), y = r->param(y_axis);
        if (x.isEmpty() || y.isEmpty()) continue;
        xs.insert(x);
        ys.insert(y);
    }
    m.x_values = QStringList(xs.begin(), xs.end());
    m.y_values = QStringList(ys.begin(), ys.end());
    sort_values(m.x_values);
    sort_values(m.y_values);
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
