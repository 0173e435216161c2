#include "gui/core/tuning_traces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace memwall::gui {

TuningTrace make_trace(const QString& session, const QString& strategy, const std::vector<double>& seconds,
                       const std::vector<const CaseRow*>& rows) {
    TuningTrace t{session, strategy, {}};
    double best = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        const double s = seconds[i];
        if (!std::isnan(s) && (std::isnan(best) || s < best)) best = s;
        t.steps.push_back(TuningStep{static_cast<int>(i + 1), s, best, rows.empty() ? nullptr : rows[i]});
    }
    return t;
}

std::vector<TuningTrace> sweep_traces(const std::vector<const CaseRow*>& rows) {
    using Key = std::tuple<std::int64_t, std::string, std::string, std::string, std::string>;
    std::map<Key, std::vector<const CaseRow*>> groups;
    std::vector<Key> order;
    for (const CaseRow* r : rows) {
        const Key k{r->run_id, r->key.family, r->key.variant, r->key.backend, r->key.problem};
        auto [it, fresh] = groups.try_emplace(k);
        if (fresh) order.push_back(k);
        it->second.push_back(r);
    }
    std::vector<TuningTrace> out;
    for (const Key& k : order) {
        std::vector<const CaseRow*> cases = groups[k];
        if (cases.size() < 2) continue;
        // Case ids grow in the order the sweep measured them.
        std::sort(cases.begin(), cases.end(), [](const CaseRow* a, const CaseRow* b) { return a->id < b->id; });
        std::vector<double> seconds;
        for (const CaseRow* c : cases)
            seconds.push_back(c->timed() && c->status == CaseStatus::ok ? c->median : std::numeric_limits<double>::quiet_NaN());
        QString problem;
        for (const Param& p : cases.front()->params)
            if (!p.tunable) problem += (problem.isEmpty() ? QString() : QStringLiteral(" ")) + p.name + QLatin1Char('=') + p.value;
        const CaseRow& f = *cases.front();
        const QString session = QStringLiteral("%1/%2/%3 %4 (run %5)").arg(f.family, f.variant, f.backend, problem).arg(f.run_id);
        out.push_back(make_trace(session, kSweepStrategy, seconds, cases));
    }
    return out;
}

QStringList sessions(const std::vector<TuningTrace>& traces) {
    QStringList out;
    for (const TuningTrace& t : traces)
        if (!out.contains(t.session)) out << t.session;
    return out;
}

}  // namespace memwall::gui
