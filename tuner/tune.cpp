#include "tuner/tune.hpp"

#include <chrono>
#include <stdexcept>

namespace memwall {

std::optional<std::size_t> Trace::best() const {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Evaluation& e = entries[i].evaluation;
        if (e.ok() && (!best || e.seconds < entries[*best].evaluation.seconds)) best = i;
    }
    return best;
}

History::History(const TuningSpace& space, const Trace& trace)
    : space_(&space), trace_(&trace), slot_(space.size(), -1) {
    for (std::size_t i = 0; i < trace.entries.size(); ++i) {
        slot_[trace.entries[i].config] = static_cast<std::int32_t>(i);
        const Evaluation& e = trace.entries[i].evaluation;
        if (e.ok() && (!best_ || e.seconds < best_seconds())) best_ = trace.entries[i].config;
    }
}

const Evaluation* History::result(std::size_t config) const {
    const std::int32_t s = slot_[config];
    return s < 0 ? nullptr : &trace_->entries[static_cast<std::size_t>(s)].evaluation;
}

double History::best_seconds() const {
    return best_ ? result(*best_)->seconds : std::numeric_limits<double>::infinity();
}

void History::record_last() {
    const TraceEntry& last = trace_->entries.back();
    slot_[last.config] = static_cast<std::int32_t>(trace_->entries.size() - 1);
    if (last.evaluation.ok() && last.evaluation.seconds < best_seconds()) best_ = last.config;
}

Trace tune(Objective& objective, Strategy& strategy, const Budget& budget, const TuneHooks& hooks) {
    using clock = std::chrono::steady_clock;
    const TuningSpace& space = objective.space();
    Trace trace;
    History history(space, trace);
    double elapsed = 0;
    std::size_t since_improvement = 0;
    for (;;) {
        if (budget.evaluations && trace.entries.size() >= budget.evaluations) {
            trace.stop_reason = "evaluations";
            break;
        }
        if (budget.seconds > 0 && elapsed >= budget.seconds) {
            trace.stop_reason = "time";
            break;
        }
        if (budget.stale && since_improvement >= budget.stale) {
            trace.stop_reason = "no improvement";
            break;
        }
        if (trace.entries.size() == space.size()) {
            trace.stop_reason = "space exhausted";
            break;
        }
        if (hooks.interrupted && hooks.interrupted()) {
            trace.stop_reason = "interrupted";
            break;
        }
        const auto t0 = clock::now();
        const std::optional<std::size_t> next = strategy.propose(history);
        const double strategy_seconds = std::chrono::duration<double>(clock::now() - t0).count();
        if (!next) {
            trace.stop_reason = "strategy finished";
            break;
        }
        if (*next >= space.size()) throw std::logic_error("strategy proposed a configuration outside the space");
        if (history.evaluated(*next))
            throw std::logic_error("strategy proposed configuration " + space.label(*next) + " twice");

        if (hooks.proposed) hooks.proposed(*next);
        TraceEntry entry;
        entry.config = *next;
        entry.evaluation = objective.evaluate(*next);
        entry.strategy_seconds = strategy_seconds;
        elapsed += entry.evaluation.cost_seconds + strategy_seconds;
        entry.elapsed_seconds = elapsed;
        const double before = history.best_seconds();
        trace.entries.push_back(std::move(entry));
        history.record_last();
        trace.entries.back().best_seconds = history.best_seconds();
        since_improvement = history.best_seconds() < before ? 0 : since_improvement + 1;
        if (hooks.evaluated) hooks.evaluated(trace);
    }
    return trace;
}

}  // namespace memwall
