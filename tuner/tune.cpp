#include "tuner/tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"
#include "stats/statistics.hpp"

namespace memwall {

std::string_view to_string(StopReason reason) {
    switch (reason) {
        case StopReason::evaluations: return "evaluations";
        case StopReason::time: return "time";
        case StopReason::no_improvement: return "no improvement";
        case StopReason::improvement_unlikely: return "improvement unlikely";
        case StopReason::space_exhausted: return "space exhausted";
        case StopReason::strategy_finished: return "strategy finished";
        case StopReason::interrupted: return "interrupted";
    }
    return "";
}

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
    for (std::size_t i = 0; i < trace.entries.size(); ++i)
        slot_[trace.entries[i].config] = static_cast<std::int32_t>(i);
    retime();
}

const Evaluation* History::result(std::size_t config) const {
    const std::int32_t s = slot_[config];
    return s < 0 ? nullptr : &trace_->entries[static_cast<std::size_t>(s)].evaluation;
}

double History::best_seconds() const {
    return best_ ? result(*best_)->seconds : std::numeric_limits<double>::infinity();
}

void History::retime() {
    best_.reset();
    for (const TraceEntry& e : trace_->entries)
        if (e.evaluation.ok() && (!best_ || e.evaluation.seconds < best_seconds())) best_ = e.config;
}

void History::record_last() {
    const TraceEntry& last = trace_->entries.back();
    slot_[last.config] = static_cast<std::int32_t>(trace_->entries.size() - 1);
    if (last.evaluation.ok() && last.evaluation.seconds < best_seconds()) best_ = last.config;
}

namespace {

// The ok entries within `margin` of the best, fastest first, at most `count`.
std::vector<std::size_t> candidates(const Trace& trace, const Confirmation& c) {
    std::vector<std::size_t> ok;
    for (std::size_t i = 0; i < trace.entries.size(); ++i)
        if (trace.entries[i].evaluation.ok()) ok.push_back(i);
    std::sort(ok.begin(), ok.end(), [&](std::size_t a, std::size_t b) {
        return trace.entries[a].evaluation.seconds < trace.entries[b].evaluation.seconds;
    });
    if (ok.empty()) return ok;
    const double limit = trace.entries[ok.front()].evaluation.seconds * (1 + c.margin);
    std::vector<std::size_t> out;
    for (std::size_t i : ok)
        if (out.size() < c.candidates && trace.entries[i].evaluation.seconds <= limit) out.push_back(i);
    return out;
}

// Folds a further measurement into an entry: the median time of all measurements, or the
// failure when this one failed (a configuration that fails once is not trusted).
void fold(TraceEntry& entry, Evaluation again) {
    Evaluation& e = entry.evaluation;
    e.cost_seconds += again.cost_seconds;
    if (!again.ok()) {
        e.status = again.status;
        e.reason = "measured again: " + again.reason;
        e.seconds = 0;
        return;
    }
    entry.times.push_back(again.seconds);
    e.samples.insert(e.samples.end(), again.samples.begin(), again.samples.end());
    e.seconds = summarize(entry.times).median;
}

// Measures entry `at` once more and folds the measurement into it; returns its cost. The hooks
// hear of the change to an entry they have been told of (hooks.evaluated), not of one still in
// flight: that one reaches them whole.
double measure_again(Objective& objective, Trace& trace, std::size_t at, const TuneHooks& hooks, bool in_flight) {
    TraceEntry& entry = trace.entries[at];
    if (hooks.confirming) hooks.confirming(entry.config);
    Evaluation again;
    try {
        again = objective.evaluate(entry.config);
    } catch (const Interrupted&) {  // the measurement in flight is dropped; the entry keeps its earlier ones
        trace.stop_reason = StopReason::interrupted;
        return 0;
    }
    const double cost = again.cost_seconds;
    ++trace.confirmations;
    fold(entry, std::move(again));
    if (hooks.confirmed && !in_flight) hooks.confirmed(trace, at);
    return cost;
}

// Measures the candidates round by round, rotating the order, while the budget lasts; an
// interruption ends the session as interrupted.
void confirm(Objective& objective, Trace& trace, const Budget& budget, const TuneHooks& hooks, const Confirmation& c) {
    const std::vector<std::size_t> chosen = candidates(trace, c);
    if (chosen.size() < 2) return;
    for (std::size_t round = 0; round < c.rounds; ++round) {
        for (std::size_t k = 0; k < chosen.size(); ++k) {
            if (trace.stop_reason == StopReason::interrupted || (hooks.interrupted && hooks.interrupted())) {
                trace.stop_reason = StopReason::interrupted;
                return;
            }
            if (budget.seconds > 0 && trace.elapsed_seconds >= budget.seconds) return;
            if (budget.evaluations && trace.measurements() >= budget.evaluations) return;
            const std::size_t at = chosen[(k + round) % chosen.size()];
            if (trace.entries[at].evaluation.ok())
                trace.elapsed_seconds += measure_again(objective, trace, at, hooks, false);
        }
    }
}

// An ok evaluation's relative standard error: the half-width of its samples' median's 95%
// interval (order statistics, distribution-free) / 1.96 / the median; nullopt without two
// samples to tell it by.
std::optional<double> relative_spread(const Evaluation& e) {
    if (!e.ok() || e.samples.size() < 2) return std::nullopt;
    const double median = summarize(e.samples).median;
    if (median <= 0) return std::nullopt;
    const Interval ci = median_ci(e.samples, 0.95);
    return (ci.hi - ci.lo) / 2 / 1.96 / median;
}

double margin_of(std::vector<double> spreads) {
    if (spreads.empty()) return kNoiseMarginPerSpread * kMinNoise;
    std::sort(spreads.begin(), spreads.end());
    return kNoiseMarginPerSpread * std::max(kMinNoise, quantile_sorted(spreads, 0.5));
}

// Whether the best has held: the best of the first half of the evaluations, at its time now (it
// may have been measured again), within the noise of the best now (so steps each smaller than
// the noise add up), and the two entries.
struct Hold {
    bool held = false;
    std::optional<std::size_t> earlier, now;
};
Hold hold_of(const Trace& trace, double noise) {
    Hold h;
    const std::size_t half = trace.entries.size() / 2;
    const auto faster = [&](std::size_t i, std::optional<std::size_t> than) {
        return !than || trace.entries[i].evaluation.seconds < trace.entries[*than].evaluation.seconds;
    };
    for (std::size_t i = 0; i < trace.entries.size(); ++i) {
        if (!trace.entries[i].evaluation.ok()) continue;
        if (i < half && faster(i, h.earlier)) h.earlier = i;
        if (faster(i, h.now)) h.now = i;
    }
    h.held = h.earlier &&
             trace.entries[*h.earlier].evaluation.seconds <= trace.entries[*h.now].evaluation.seconds * (1 + noise);
    return h;
}

// Measurements of one configuration the stopping rule asks for, at most: as many as the
// confirmation's.
constexpr std::size_t kMostTimes = 3;

// The search loop of tune(), before the confirmation: propose, evaluate, judge, until a budget,
// the space, the strategy or the stopping rule ends it.
class Search {
  public:
    Search(Objective& objective, Strategy& strategy, const Budget& budget, const TuneHooks& hooks, std::size_t reserve)
        : objective_(objective),
          strategy_(strategy),
          budget_(budget),
          hooks_(hooks),
          reserve_(reserve),
          search_limit_(budget.evaluations ? budget.evaluations - reserve : 0),
          history_(objective.space(), trace_) {}

    Trace run() {
        for (;;) {
            if (const auto spent = budget_spent()) {
                trace_.stop_reason = spent;
                break;
            }
            const auto t0 = clock::now();
            const std::optional<std::size_t> next = strategy_.propose(history_);
            const double strategy_seconds = std::chrono::duration<double>(clock::now() - t0).count();
            if (!next) {
                trace_.stop_reason = StopReason::strategy_finished;
                break;
            }
            check_proposal(*next);
            if (!evaluate(*next, strategy_seconds)) break;
            const double before = history_.best_seconds();
            trace_.entries.push_back(std::move(pending_));
            history_.record_last();
            const bool unlikely = budget_.stop_chance > 0 && judge_last(before);
            // The best as it stands after any measurement again.
            trace_.entries.back().best_seconds = history_.best_seconds();
            since_improvement_ = history_.best_seconds() < before ? 0 : since_improvement_ + 1;
            if (hooks_.evaluated) hooks_.evaluated(trace_);
            if (trace_.stop_reason == StopReason::interrupted) break;  // while it was measured again
            if (unlikely) {
                trace_.stop_reason = StopReason::improvement_unlikely;
                break;
            }
        }
        trace_.elapsed_seconds = elapsed_;
        return std::move(trace_);
    }

  private:
    using clock = std::chrono::steady_clock;

    // The reason to stop before proposing another configuration, if any.
    std::optional<StopReason> budget_spent() const {
        if (search_limit_ && trace_.measurements() >= search_limit_) return StopReason::evaluations;
        if (out_of_time()) return StopReason::time;
        if (budget_.stale && since_improvement_ >= budget_.stale) return StopReason::no_improvement;
        if (trace_.entries.size() == objective_.space().size()) return StopReason::space_exhausted;
        if (hooks_.interrupted && hooks_.interrupted()) return StopReason::interrupted;
        return std::nullopt;
    }

    void check_proposal(std::size_t next) const {
        const TuningSpace& space = objective_.space();
        if (next >= space.size()) throw std::logic_error("strategy proposed a configuration outside the space");
        if (history_.evaluated(next))
            throw std::logic_error("strategy proposed configuration " + space.label(next) + " twice");
    }

    // Evaluates `config` into pending_; false when an interrupt cut it short (the trial in
    // flight is then no trial).
    bool evaluate(std::size_t config, double strategy_seconds) {
        if (hooks_.proposed) hooks_.proposed(config);
        pending_ = TraceEntry{};
        pending_.config = config;
        try {
            pending_.evaluation = objective_.evaluate(config);
        } catch (const Interrupted&) {
            trace_.stop_reason = StopReason::interrupted;
            return false;
        }
        pending_.strategy_seconds = strategy_seconds;
        elapsed_ += pending_.evaluation.cost_seconds + strategy_seconds;
        pending_.elapsed_seconds = elapsed_;
        if (pending_.evaluation.ok()) {
            pending_.times.push_back(pending_.evaluation.seconds);
            ok_cost_ += pending_.evaluation.cost_seconds;
            ++ok_count_;
        }
        return true;
    }

    // Whether the time budget is spent, the confirmation's measurements (estimated at the mean
    // cost of an ok one so far) reserved.
    bool out_of_time() const {
        const double reserve_seconds =
            ok_count_ ? static_cast<double>(reserve_) * ok_cost_ / static_cast<double>(ok_count_) : 0;
        return budget_.seconds > 0 && elapsed_ + reserve_seconds >= budget_.seconds;
    }

    // Measures entry `at` again for the stopping rule, up to kMostTimes in all and while the budget
    // lasts; false where it may not. The last entry is still in flight: hooks.evaluated not yet told.
    bool search_again(std::size_t at) {
        if (trace_.entries[at].times.size() >= kMostTimes || out_of_time() ||
            (search_limit_ && trace_.measurements() >= search_limit_) || trace_.stop_reason == StopReason::interrupted)
            return false;
        elapsed_ += measure_again(objective_, trace_, at, hooks_, at + 1 == trace_.entries.size());
        return true;
    }

    // A new best far ahead of the old is as likely a quiet spell of a shared machine as a
    // faster configuration (on flash, one measured 15% under its later median kept the search
    // going twice as long), and the rule judges every unmeasured configuration against it:
    // measured again before it is believed, a third time where the two disagree by more than the
    // noise. A strategy with no rule leaves it to the confirmation.
    void measure_new_best_again(double before) {
        TraceEntry& last = trace_.entries.back();
        if (!(strategy_.judges() && objective_.noisy() && history_.best_config() == last.config &&
              std::isfinite(before) && last.evaluation.seconds * (1 + trace_.noise) < before))
            return;
        const std::size_t at = trace_.entries.size() - 1;
        const auto disagree = [&] {
            const auto [lo, hi] = std::minmax_element(last.times.begin(), last.times.end());
            return *hi > *lo * (1 + trace_.noise);
        };
        while (last.evaluation.ok() && (last.times.size() < 2 || disagree()) && search_again(at)) {}
        history_.retime();
    }

    // The strategy's judgement, its time counted as the last entry's strategy time.
    std::optional<double> judge() {
        TraceEntry& last = trace_.entries.back();
        const auto t1 = clock::now();
        const std::optional<double> c = strategy_.improvement_chance(history_, trace_.noise);
        const double judging = std::chrono::duration<double>(clock::now() - t1).count();
        last.strategy_seconds += judging;
        elapsed_ += judging;
        last.elapsed_seconds = elapsed_;
        return c;
    }

    // The stopping rule after the last evaluation (whose arrival made the best `before` what it
    // is now): true when an improvement is unlikely and the best has held.
    bool judge_last(double before) {
        TraceEntry& last = trace_.entries.back();
        if (const auto s = relative_spread(last.evaluation)) spreads_.push_back(*s);
        trace_.noise = margin_of(spreads_);
        measure_new_best_again(before);
        std::optional<double> chance = judge();
        // A search still finding faster configurations is not done, whatever its model says:
        // on a rugged space the model misses what it has not come near yet. So the best must
        // have held for at least half of the evaluations.
        Hold hold = hold_of(trace_, trace_.noise);
        // But where the model sees nothing faster left and the best fell in the second half, a
        // lucky measurement on a plateau makes a new best as readily as a faster configuration:
        // both bests are measured again, then judged again.
        if (chance && *chance < budget_.stop_chance && !hold.held && hold.earlier && objective_.noisy()) {
            bool again = false;
            for (const std::size_t at : {*hold.earlier, *hold.now}) again = search_again(at) || again;
            if (again) {
                history_.retime();
                chance = judge();
                hold = hold_of(trace_, trace_.noise);
            }
        }
        if (chance) last.improvement_chance = *chance;
        return hold.held && chance && *chance < budget_.stop_chance;
    }

    Objective& objective_;
    Strategy& strategy_;
    const Budget& budget_;
    const TuneHooks& hooks_;
    const std::size_t reserve_, search_limit_;
    Trace trace_;
    History history_;
    TraceEntry pending_;  // the evaluation in flight
    double elapsed_ = 0, ok_cost_ = 0;
    std::size_t since_improvement_ = 0, ok_count_ = 0;
    std::vector<double> spreads_;  // of each evaluation, for the stopping rule's margin
};

}  // namespace

double noise_margin(const Trace& trace) {
    std::vector<double> spreads;
    for (const TraceEntry& e : trace.entries)
        if (const auto s = relative_spread(e.evaluation)) spreads.push_back(*s);
    return margin_of(std::move(spreads));
}

std::size_t confirmation_reserve(const Objective& objective, const Budget& budget, const Confirmation& c) {
    const std::size_t wanted = c.candidates > 1 ? c.candidates * c.rounds : 0;
    const bool confirming =
        objective.noisy() && wanted > 0 && (budget.evaluations == 0 || budget.evaluations > 2 * wanted);
    return confirming ? wanted : 0;
}

Trace tune(Objective& objective, Strategy& strategy, const Budget& budget, const TuneHooks& hooks,
           const Confirmation& confirmation) {
    const std::size_t reserve = confirmation_reserve(objective, budget, confirmation);
    Search search(objective, strategy, budget, hooks, reserve);
    Trace trace = search.run();
    if (reserve > 0 && trace.stop_reason != StopReason::interrupted)
        confirm(objective, trace, budget, hooks, confirmation);
    return trace;
}

}  // namespace memwall
