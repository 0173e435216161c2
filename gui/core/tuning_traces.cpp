#include "gui/core/tuning_traces.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "gui/core/case_data.hpp"
#include "tuner/tuning_session.hpp"

namespace memwall::gui {

namespace {

// "a=1 b=2" from a canonical JSON object.
QString params_text(const std::string& json) {
    QString out;
    for (const Param& p : parse_params("", json, "{}"))
        out += (out.isEmpty() ? QString() : QStringLiteral(" ")) + p.name + QLatin1Char('=') + p.text();
    return out;
}

}  // namespace

QString TuningStudy::name() const {
    return kernel + (problem.isEmpty() ? QString() : QLatin1Char(' ') + problem) + QStringLiteral(" · ") + device +
           QStringLiteral(" · ") + backend;
}

TuningTrace make_trace(const TuningSessionInfo& session, const std::vector<TrialRecord>& trials) {
    TuningTrace t;
    t.session = session.id;
    t.seed = session.seed;
    t.strategy = qstr(session.strategy);
    t.name = QStringLiteral("session %1 · %2 · seed %3").arg(session.id).arg(t.strategy).arg(session.seed);
    double best = std::numeric_limits<double>::quiet_NaN();
    for (const TrialRecord& trial : trials) {
        TuningStep s;
        s.evaluation = static_cast<int>(trial.index + 1);
        s.seconds = trial.seconds ? *trial.seconds : std::numeric_limits<double>::quiet_NaN();
        if (!std::isnan(s.seconds) && (std::isnan(best) || s.seconds < best)) best = s.seconds;
        s.best_seconds = best;
        s.config = params_text(trial.config);
        s.status = qstr(trial.status);
        if (!trial.reason.empty()) s.status += QStringLiteral(": ") + qstr(trial.reason);
        t.steps.push_back(std::move(s));
    }
    return t;
}

std::vector<TuningStudy> tuning_studies(const std::vector<TuningSessionSummary>& sessions) {
    using Key = std::tuple<std::string, std::string, std::string, std::string, std::string, TimeSource>;
    std::map<Key, std::size_t> index;
    std::vector<TuningStudy> out;
    for (const TuningSessionSummary& s : sessions) {
        const TuningSessionInfo& i = s.info;
        const auto [it, fresh] =
            index.try_emplace(Key{i.device, i.backend, i.family, i.variant, i.problem, i.time_source}, out.size());
        if (fresh) {
            const std::string label = time_label(i.time_source, i.device);
            out.push_back({qstr(i.family.empty() ? i.variant : i.family + "/" + i.variant),
                           params_text(i.problem),
                           qstr(i.device),
                           qstr(i.backend),
                           label.empty() ? QStringLiteral("measured") : qstr(label),
                           {}});
        }
        out[it->second].sessions.push_back(s);
    }
    return out;
}

int newest_study(const std::vector<TuningStudy>& studies) {
    int newest = -1;
    const TuningSessionInfo* latest = nullptr;
    for (std::size_t i = 0; i < studies.size(); ++i)
        for (const TuningSessionSummary& s : studies[i].sessions)
            if (!latest || std::tie(s.info.started_at, s.info.id) > std::tie(latest->started_at, latest->id)) {
                latest = &s.info;
                newest = static_cast<int>(i);
            }
    return newest;
}

std::vector<TuningTrace> study_traces(const Store& store, const TuningStudy& study) {
    std::vector<TuningTrace> out;
    for (const TuningSessionSummary& s : study.sessions)
        out.push_back(make_trace(s.info, trials(store, s.info.id, false)));
    return out;
}

}  // namespace memwall::gui
