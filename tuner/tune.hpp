// The tuning loop: a Strategy proposes configurations, an Objective evaluates them, and the
// Trace records every evaluation with the best time so far. An evaluation is counted once per
// unique configuration; failed configurations are recorded with their reason and never become
// the best.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/objective.hpp"
#include "tuner/tuning_space.hpp"

namespace memwall {

struct Budget {
    std::size_t evaluations = 0;  // measurements: unique configurations, plus confirmations; 0: no limit
    double seconds = 0;           // evaluation cost plus strategy time; 0: no limit
    std::size_t stale = 0;        // stop after this many evaluations without a better time; 0: never
    // The stopping rule: stop when the strategy's model puts the chance that a configuration not
    // yet evaluated beats the best by more than the noise (noise_margin) below this, once the
    // best has held for at least half of the evaluations (the best after the first half is within
    // the noise of the best now); 0: never. Strategies without a model (all but guided) never stop by it.
    double stop_chance = 0;
};

// The end of a session on a noisy objective (Objective::noisy: a time measured here varies by a
// few percent between measurements): the search's best may be a lucky measurement of a
// configuration that is not the fastest. So the `candidates` fastest configurations within
// `margin` of the best are measured `rounds` more times, round by round (a slow spell of the
// machine then hits them alike), and each one's time becomes the median of its measurements.
// The measurements come out of the budget: candidates x rounds are reserved from an evaluation
// budget larger than twice that (a smaller one is all search), and their estimated cost from a
// time budget. Interrupted or exhausted by failures, a session is not confirmed.
struct Confirmation {
    std::size_t candidates = 3;  // 0 or 1: no confirmation
    std::size_t rounds = 2;
    double margin = 0.10;
};

struct TraceEntry {
    std::size_t config = 0;
    Evaluation evaluation;
    double best_seconds = std::numeric_limits<double>::infinity();  // best ok time so far
    double strategy_seconds = 0;  // wall time the strategy took to propose this configuration
    double elapsed_seconds = 0;   // evaluation cost and strategy time so far, this one included
    // Each measurement's time: one, or more when confirmed (evaluation.seconds is their median,
    // evaluation.samples all their samples, evaluation.cost_seconds their total cost).
    std::vector<double> times;
    // With the stopping rule on: the chance, after this evaluation, that an unevaluated
    // configuration beats the best by more than the noise; NaN when the strategy could not
    // judge it (yet).
    double improvement_chance = std::numeric_limits<double>::quiet_NaN();
};

// Why tune() stopped: a budget (evaluations, time, no improvement), the stopping rule
// (improvement unlikely), the space or the strategy running out, or an interrupt. Stored as
// to_string's text (a tuning session's stop_reason), which reports print.
enum class StopReason {
    evaluations,
    time,
    no_improvement,
    improvement_unlikely,
    space_exhausted,
    strategy_finished,
    interrupted
};
std::string_view to_string(StopReason reason);

struct Trace {
    std::vector<TraceEntry> entries;
    std::optional<StopReason> stop_reason;  // set when tune() returns
    double noise = 0;                       // the stopping rule's margin when it last judged (noise_margin)
    // Measurements of configurations already measured: the confirmation's, and those of the
    // stopping rule, which measures a best again before it trusts a fall in the best.
    std::size_t confirmations = 0;
    double elapsed_seconds = 0;  // the whole session's, the confirmation included

    // Every measurement: one per entry, plus the confirmations.
    std::size_t measurements() const { return entries.size() + confirmations; }
    // The entry holding the best ok time, or nullopt when none succeeded.
    std::optional<std::size_t> best() const;
};

// What a strategy sees: the space and every evaluation so far.
class History {
  public:
    explicit History(const TuningSpace& space, const Trace& trace);

    const TuningSpace& space() const { return *space_; }
    std::size_t evaluations() const { return trace_->entries.size(); }
    bool evaluated(std::size_t config) const { return slot_[config] >= 0; }
    // nullptr when `config` has not been evaluated.
    const Evaluation* result(std::size_t config) const;
    // The i-th evaluation, in order.
    const TraceEntry& entry(std::size_t i) const { return trace_->entries[i]; }
    std::optional<std::size_t> best_config() const { return best_; }
    double best_seconds() const;

    // Called by tune() after each evaluation appended to the trace.
    void record_last();
    // Called by tune() after entries were measured again: the best may have changed.
    void retime();

  private:
    const TuningSpace* space_;
    const Trace* trace_;
    std::vector<std::int32_t> slot_;  // config -> entry, or -1
    std::optional<std::size_t> best_;
};

class Strategy {
  public:
    virtual ~Strategy() = default;
    // The next configuration to evaluate, never one already evaluated; nullopt when the
    // strategy has nothing left to try.
    virtual std::optional<std::size_t> propose(const History& history) = 0;
    // The chance, as the strategy's model sees it, that a configuration not yet evaluated is
    // faster than the best so far by more than `margin` (relative: 0.01 = 1%); nullopt for a
    // strategy without a model, or with too few evaluations to judge.
    virtual std::optional<double> improvement_chance(const History&, double /*margin*/) { return std::nullopt; }
    // Whether it has such a model (a stopping rule) at all, though it may not judge yet.
    virtual bool judges() const { return false; }
};

// The stopping rule's margin: the relative difference that two measurements of one
// configuration exceed only by chance 1 time in 20 (1.96 sqrt(2) times one measurement's spread,
// the spread of their difference); a smaller one the measurements cannot tell from noise. One
// measurement's spread is the median, over the ok evaluations with several samples, of their
// median's standard error (its distribution-free 95% interval's half-width / 1.96, relative), and
// never below kMinNoise (recorded and predicted times, or a quiet machine, still differ by that
// much between runs and builds). A measurement is a median of many samples, so the spread is the
// median's, not a sample's: a sample's spread makes the margin 12-16% on a shared 2-core VM whose
// measurements of one configuration, paired with an anchor, differ by 1.5%. Samples of one
// measurement say nothing of drift between measurements, which is why a shared CPU pairs them
// with an anchor.
inline constexpr double kMinNoise = 0.01;
inline constexpr double kNoiseMarginPerSpread = 1.96 * std::numbers::sqrt2;
double noise_margin(const Trace& trace);

// What a caller sees while tune() runs; each may be empty.
struct TuneHooks {
    std::function<void(std::size_t config)> proposed;    // before the configuration is evaluated
    std::function<void(const Trace&)> evaluated;         // after its entry is appended (to store it)
    std::function<void(std::size_t config)> confirming;  // before a measurement again (Trace::confirmations)
    std::function<void(const Trace&, std::size_t entry)> confirmed;  // after it updated that entry
    std::function<bool()> interrupted;                               // checked before each proposal: true stops
};

// The measurements tune() keeps for the confirmation: candidates x rounds on a noisy objective
// whose evaluation budget is unlimited or more than twice that, else 0.
std::size_t confirmation_reserve(const Objective& objective, const Budget& budget, const Confirmation& c);

// Runs `strategy` against `objective` until the budget or the space is exhausted, or the
// stopping rule says the best is unlikely to be beaten (Budget::stop_chance), then confirms
// the best on a noisy objective. An objective that throws Interrupted (the trial's worker killed
// by an interrupt) ends the session "interrupted" without that measurement. Throws
// std::logic_error when a strategy proposes a configuration twice or one outside the space.
Trace tune(Objective& objective, Strategy& strategy, const Budget& budget, const TuneHooks& hooks = {},
           const Confirmation& confirmation = {});

}  // namespace memwall
