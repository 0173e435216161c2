#include "cli/tuning_output.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "cli/table.hpp"
#include "results/report.hpp"
#include "tuner/tuning_session.hpp"

namespace memwall::cli {

std::string percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, fraction < 0.1 ? "%.1f%%" : "%.0f%%", fraction * 100);
    return buf;
}

std::string stopping_rule_line(std::size_t evaluations, double chance, double noise, double stop_chance) {
    const std::string faster = " more than " + percent(noise) + " faster than the best";
    return "stopping rule: after " + std::to_string(evaluations) + " evaluations, " +
           (chance >= 1 ? "the model cannot yet rule out an unmeasured configuration" + faster
                        : "the chance of an unmeasured configuration" + faster + " is at most " + percent(chance)) +
           " (stops below " + percent(stop_chance) + ")";
}

std::string session_kernel(const TuningSessionInfo& s) {
    if (s.backend == "replay") return "replay of " + s.variant;
    return s.family + "/" + s.variant + "/" + s.backend;
}

std::string labelled_time(const TuningSessionInfo& s, double seconds) {
    const std::string label = time_label(s.time_source, s.device);
    return format_duration(seconds) + (label.empty() ? "" : " " + label);
}

namespace {

// "12", or "36 in 3 measurements" for a confirmed configuration.
std::string samples_text(const TrialRecord& r) {
    std::string s = std::to_string(r.samples.size());
    if (r.measurements > 1) s += " in " + std::to_string(r.measurements) + " measurements";
    return s;
}

}  // namespace

void print_trials(std::ostream& os, const TuningSessionSummary& s, const std::vector<TrialRecord>& trials) {
    const std::string label = time_label(s.info.time_source, s.info.device);
    const bool measured = s.info.time_source == TimeSource::measured;
    Table t({"eval", "configuration", "status", label.empty() ? "time (median)" : "time: " + label, "samples",
             "best so far"},
            {true, false, false, true, true, true});
    double best = std::numeric_limits<double>::infinity();
    for (const TrialRecord& r : trials) {
        if (r.seconds) best = std::min(best, *r.seconds);
        t.add({std::to_string(r.index + 1), params_label(r.config),
               r.status == "ok" ? "ok" : r.status + ": " + r.reason, r.seconds ? format_duration(*r.seconds) : "-",
               measured && r.seconds ? samples_text(r) : "-", std::isfinite(best) ? format_duration(best) : "-"});
    }
    t.print(os);
}

void print_best(std::ostream& os, const TuningSessionSummary& s, const std::vector<TrialRecord>& trials) {
    if (!s.best_index) {
        os << "no configuration succeeded\n";
        return;
    }
    const TrialRecord& b = trials.at(static_cast<std::size_t>(*s.best_index));
    os << "best: " << params_label(s.best_config) << "  ";
    if (s.info.time_source == TimeSource::recorded) {
        os << format_duration(*s.best_seconds) << " (" << time_label(s.info.time_source, s.info.device) << ")";
    } else if (s.info.time_source == TimeSource::predicted) {
        os << labelled_time(s.info, *s.best_seconds) << ", from emu counters";
    } else {
        os << format_duration(*s.best_seconds) << " (median of ";
        if (b.measurements > 1) os << b.measurements << " measurements, ";
        os << b.samples.size() << " samples" << (s.info.anchor.empty() ? "" : " beside the anchor") << ")";
    }
    os << ", found at evaluation " << *s.best_index + 1 << " of " << s.trials << "\n";
}

void print_tuning_sessions(std::ostream& os, const std::vector<TuningSessionSummary>& sessions) {
    if (sessions.empty()) {
        os << "no tuning sessions\n";
        return;
    }
    Table t({"session", "started", "status", "kernel", "device", "problem", "strategy", "trials", "best",
             "configuration", "stopped by"},
            {true, false, false, false, false, false, false, true, true, false, false});
    for (const auto& s : sessions) {
        const TuningSessionInfo& i = s.info;
        t.add({std::to_string(i.id), i.started_at, std::string(to_string(i.status)), session_kernel(i), i.device,
               params_label(i.problem), i.strategy, std::to_string(s.trials) + "/" + std::to_string(i.space_size),
               s.best_seconds ? labelled_time(i, *s.best_seconds) : "-",
               s.best_index ? params_label(s.best_config) : "-", i.stop_reason.empty() ? "-" : i.stop_reason});
    }
    t.print(os);
}

}  // namespace memwall::cli
