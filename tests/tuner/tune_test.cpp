#include "tuner/tune.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

#include "tests/support/synthetic_space.hpp"
#include "tuner/replay.hpp"
#include "tuner/strategy.hpp"

namespace memwall {
namespace {

// Proposes a fixed list, then stops.
class Scripted final : public Strategy {
  public:
    explicit Scripted(std::vector<std::size_t> order) : order_(std::move(order)) {}
    std::optional<std::size_t> propose(const History&) override {
        if (next_ == order_.size()) return std::nullopt;
        return order_[next_++];
    }

  private:
    std::vector<std::size_t> order_;
    std::size_t next_ = 0;
};

std::size_t id(const RecordedSpace& rs, std::uint16_t x, std::uint16_t y, std::uint16_t z) {
    return rs.space.find({x, y, z}).value();
}

TEST(Tune, ReplayReturnsWhatWasRecorded) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    Scripted s({id(rs, 4, 1, 2), id(rs, 0, 0, 3)});
    const Trace t = tune(objective, s, {});
    ASSERT_EQ(t.entries.size(), 2u);
    EXPECT_DOUBLE_EQ(t.entries[0].evaluation.seconds, 1e-3);
    EXPECT_EQ(t.entries[1].evaluation.status, EvalStatus::runtime_failed);
    EXPECT_EQ(t.entries[1].evaluation.reason, "RuntimeFailedConfig");
    EXPECT_EQ(t.stop_reason, StopReason::strategy_finished);
}

TEST(Tune, FailuresAreRecordedButNeverBest) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    Scripted s({id(rs, 0, 0, 3), id(rs, 3, 3, 3), id(rs, 0, 1, 3), id(rs, 4, 1, 1)});
    const Trace t = tune(objective, s, {});
    EXPECT_TRUE(std::isinf(t.entries[0].best_seconds));
    EXPECT_DOUBLE_EQ(t.entries[1].best_seconds, t.entries[1].evaluation.seconds);
    EXPECT_DOUBLE_EQ(t.entries[2].best_seconds, t.entries[1].evaluation.seconds);
    EXPECT_DOUBLE_EQ(t.entries[3].best_seconds, 1.2e-3);
    EXPECT_EQ(t.best(), std::optional<std::size_t>(3));
}

TEST(Tune, StopsAtTheEvaluationBudgetAndCountsEachConfigurationOnce) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    auto s = make_strategy("exhaustive", rs.space, 1);
    const Trace t = tune(objective, *s, Budget{10, 0, 0});
    EXPECT_EQ(t.entries.size(), 10u);
    EXPECT_EQ(t.stop_reason, StopReason::evaluations);
    auto all = make_strategy("exhaustive", rs.space, 1);
    const Trace full = tune(objective, *all, {});
    EXPECT_EQ(full.entries.size(), rs.space.size());
    EXPECT_EQ(full.stop_reason, StopReason::space_exhausted);
}

TEST(Tune, StopsAtTheTimeBudget) {
    const RecordedSpace rs = testing::synthetic_space();  // every evaluation costs 1 s
    ReplayObjective objective(rs);
    auto s = make_strategy("random", rs.space, 3);
    const Trace t = tune(objective, *s, Budget{0, 5.5, 0});
    EXPECT_EQ(t.entries.size(), 6u);
    EXPECT_EQ(t.stop_reason, StopReason::time);
    EXPECT_GE(t.entries.back().elapsed_seconds, 6.0);
}

TEST(Tune, StopsAfterEvaluationsWithoutImprovement) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    // 1.2 ms, then three slower ones: the third without improvement stops the run.
    Scripted s({id(rs, 4, 1, 1), id(rs, 3, 3, 3), id(rs, 2, 2, 2), id(rs, 1, 1, 1), id(rs, 4, 1, 2)});
    const Trace t = tune(objective, s, Budget{0, 0, 3});
    EXPECT_EQ(t.entries.size(), 4u);
    EXPECT_EQ(t.stop_reason, StopReason::no_improvement);
}

// Proposes `order` (or the space in its order) and answers the stopping rule from a script: the
// chance after each evaluation.
class Judging final : public Strategy {
  public:
    explicit Judging(std::vector<std::optional<double>> chances, std::vector<std::size_t> order = {})
        : chances_(std::move(chances)), order_(std::move(order)) {}
    std::optional<std::size_t> propose(const History& h) override {
        return order_.empty() ? h.evaluations() : order_.at(h.evaluations());
    }
    bool judges() const override { return true; }
    std::optional<double> improvement_chance(const History& h, double margin) override {
        margins.push_back(margin);
        return chances_.at(h.evaluations() - 1);
    }
    std::vector<double> margins;

  private:
    std::vector<std::optional<double>> chances_;
    std::vector<std::size_t> order_;
};

TEST(Tune, TheStoppingRuleStopsWhenTheChanceOfABetterConfigurationIsSmall) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    // The optimum first, so the best holds from the start.
    Judging s({std::nullopt, 0.5, 0.2, 0.04, 0.01},
              {id(rs, 4, 1, 2), id(rs, 0, 0, 0), id(rs, 0, 0, 1), id(rs, 1, 0, 0), id(rs, 1, 0, 1)});
    const Trace t = tune(objective, s, Budget{0, 0, 0, 0.05});
    ASSERT_EQ(t.entries.size(), 4u);
    EXPECT_EQ(t.stop_reason, StopReason::improvement_unlikely);
    EXPECT_TRUE(std::isnan(t.entries[0].improvement_chance));
    EXPECT_DOUBLE_EQ(t.entries[1].improvement_chance, 0.5);
    EXPECT_DOUBLE_EQ(t.entries[3].improvement_chance, 0.04);
    // Recorded times carry no samples to measure noise by: the margin is that of the floor.
    EXPECT_EQ(s.margins, std::vector<double>(4, kNoiseMarginPerSpread * kMinNoise));
    EXPECT_DOUBLE_EQ(t.noise, kNoiseMarginPerSpread * kMinNoise);

    // Off, the rule is never asked; the budget stays the hard cap when it is on.
    Judging off({0.0, 0.0, 0.0});
    EXPECT_EQ(tune(objective, off, Budget{3, 0, 0}).stop_reason, StopReason::evaluations);
    EXPECT_TRUE(off.margins.empty());
    Judging capped({0.9, 0.9, 0.9, 0.9});
    EXPECT_EQ(tune(objective, capped, Budget{3, 0, 0, 0.05}).stop_reason, StopReason::evaluations);
    // A strategy without a model never stops by it.
    auto random = make_strategy("random", rs.space, 1);
    EXPECT_EQ(tune(objective, *random, Budget{0, 0, 0, 0.05}).stop_reason, StopReason::space_exhausted);
}

TEST(Tune, TheStoppingRuleWaitsUntilTheBestHasHeldForHalfTheEvaluations) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    // Five evaluations, each faster than the last by far more than the noise, then slower ones:
    // the model's small chance counts only from the tenth evaluation on.
    std::vector<std::size_t> order;
    for (std::uint16_t x = 0; x <= 4; ++x) order.push_back(id(rs, x, 1, 2));
    for (std::uint16_t z = 0; z < 3; ++z) order.push_back(id(rs, 0, 0, z));
    for (std::uint16_t z = 0; z < 4; ++z) order.push_back(id(rs, 1, 0, z));
    Judging s(std::vector<std::optional<double>>(order.size(), 0.01), order);
    const Trace t = tune(objective, s, Budget{0, 0, 0, 0.05});
    EXPECT_EQ(t.entries.size(), 10u);
    EXPECT_EQ(t.stop_reason, StopReason::improvement_unlikely);
}

TEST(Tune, StepsEachSmallerThanTheNoiseAddUpAndTheBestHasNotHeld) {
    // 30 configurations of one parameter, each 2% faster than the last up to the 12th (the
    // margin is 2.8%), then level; the model is sure from the 10th on. The best after the first
    // half must be within the margin of the best now: first at the 22nd evaluation (the 11th's
    // 0.98^10 against 0.98^11), where counting only steps larger than the margin stopped at 10.
    RecordedSpace rs;
    std::vector<Value> values;
    std::vector<Config> configs;
    for (std::uint16_t i = 0; i < 30; ++i) {
        values.emplace_back(std::int64_t{i});
        configs.push_back({i});
        Evaluation e;
        e.seconds = 1e-3 * std::pow(0.98, std::min(i, std::uint16_t{11}));
        rs.results.push_back(e);
    }
    rs.space = TuningSpace({{"i", values}}, configs);
    ReplayObjective objective(rs);
    std::vector<std::optional<double>> chances(30, 0.01);
    std::fill(chances.begin(), chances.begin() + 9, std::nullopt);
    Judging s(chances);
    const Trace t = tune(objective, s, Budget{0, 0, 0, 0.05});
    EXPECT_EQ(t.entries.size(), 22u);
    EXPECT_EQ(t.stop_reason, StopReason::improvement_unlikely);
}

TEST(Tune, TheNoiseMarginIsWhatTwoMeasurementsOfTheTypicalSpreadRarelyExceed) {
    Trace t;
    const auto add = [&](std::vector<double> samples, EvalStatus status = EvalStatus::ok) {
        TraceEntry e;
        e.evaluation.status = status;
        e.evaluation.seconds = samples.empty() ? 0 : samples[samples.size() / 2];
        e.evaluation.samples = std::move(samples);
        t.entries.push_back(e);
    };
    EXPECT_DOUBLE_EQ(noise_margin(t), kNoiseMarginPerSpread * kMinNoise);
    EXPECT_NEAR(kNoiseMarginPerSpread, 2.77, 0.01);  // 1.96 sd of the difference of two measurements
    // Standard errors of the median: its 95% interval's half-width / 1.96, relative; five samples
    // are too few for an interval of order statistics inside their range, which is taken instead.
    add({0.96, 0.98, 1.00, 1.02, 1.04});                                          // 0.08 / 2 / 1.96 = 0.0204
    add({1.99, 1.995, 2.00, 2.005, 2.01});                                        // 0.02 / 2 / 1.96 / 2 = 0.0026
    add({9.0, 10.0, 11.0, 12.0, 13.0});                                           // 4 / 2 / 1.96 / 11 = 0.093
    add({5.0});                                                                   // one sample: no spread
    add({1.0, 50.0, 100.0}, EvalStatus::runtime_failed);                          // failed: not counted
    EXPECT_NEAR(noise_margin(t), kNoiseMarginPerSpread * 0.08 / 2 / 1.96, 1e-9);  // the median of the three
    Trace quiet;
    TraceEntry e;
    e.evaluation.seconds = 1;
    e.evaluation.samples = {1.0, 1.0001, 1.0002, 1.0003};
    quiet.entries.push_back(e);
    EXPECT_DOUBLE_EQ(noise_margin(quiet), kNoiseMarginPerSpread * kMinNoise);
    // A median of many samples is surer than one of few that spread as much: the margin is the
    // measurement's, not a sample's.
    Trace few, many;
    for (double spread : {0.05, 0.06, 0.07}) {
        TraceEntry f, m;
        f.evaluation.seconds = m.evaluation.seconds = 1;
        for (int i = -2; i <= 2; ++i) f.evaluation.samples.push_back(1 + spread * i);
        for (int i = -20; i <= 20; ++i) m.evaluation.samples.push_back(1 + spread * i / 10);
        few.entries.push_back(f);
        many.entries.push_back(m);
    }
    EXPECT_LT(noise_margin(many), noise_margin(few) / 1.5);
}

TEST(Tune, RejectsAStrategyThatProposesTwice) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    Scripted twice({1, 2, 1});
    EXPECT_THROW(tune(objective, twice, {}), std::logic_error);
    Scripted outside({rs.space.size()});
    EXPECT_THROW(tune(objective, outside, {}), std::logic_error);
}

TEST(Tune, HooksSeeEachEvaluationAndCanInterrupt) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    auto s = make_strategy("random", rs.space, 5);
    std::vector<std::size_t> proposed, evaluated;
    TuneHooks hooks;
    hooks.proposed = [&](std::size_t c) {
        EXPECT_EQ(proposed.size(), evaluated.size());  // called before the evaluation is appended
        proposed.push_back(c);
    };
    hooks.evaluated = [&](const Trace& t) { evaluated.push_back(t.entries.back().config); };
    hooks.interrupted = [&] { return evaluated.size() == 4; };
    const Trace t = tune(objective, *s, {}, hooks);
    EXPECT_EQ(t.stop_reason, StopReason::interrupted);
    ASSERT_EQ(t.entries.size(), 4u);
    EXPECT_EQ(proposed, evaluated);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(evaluated[i], t.entries[i].config);
}

TEST(Tune, HistoryTellsStrategiesWhatWasMeasured) {
    const RecordedSpace rs = testing::synthetic_space();
    Trace trace;
    History h(rs.space, trace);
    EXPECT_FALSE(h.best_config());
    trace.entries.push_back({id(rs, 4, 1, 1), rs.results[id(rs, 4, 1, 1)]});
    h.record_last();
    trace.entries.push_back({id(rs, 0, 0, 3), rs.results[id(rs, 0, 0, 3)]});
    h.record_last();
    EXPECT_TRUE(h.evaluated(id(rs, 0, 0, 3)));
    EXPECT_FALSE(h.evaluated(id(rs, 4, 1, 2)));
    EXPECT_EQ(h.result(id(rs, 4, 1, 2)), nullptr);
    EXPECT_EQ(h.best_config(), id(rs, 4, 1, 1));
    EXPECT_DOUBLE_EQ(h.best_seconds(), 1.2e-3);
    EXPECT_EQ(h.evaluations(), 2u);
}

// A measured objective: each configuration returns its queued times in turn (then its last
// one); a negative time is a failure. Every measurement costs 1 s and has one sample.
class Noisy final : public Objective {
  public:
    Noisy(const TuningSpace& space, std::map<std::size_t, std::deque<double>> times)
        : space_(space), times_(std::move(times)) {}
    const TuningSpace& space() const override { return space_; }
    bool noisy() const override { return true; }
    Evaluation evaluate(std::size_t config) override {
        measured.push_back(config);
        auto it = times_.find(config);
        double t = 10;  // configurations not scripted are slow
        if (it != times_.end()) {
            t = it->second.front();
            if (it->second.size() > 1) it->second.pop_front();
        }
        Evaluation e;
        e.cost_seconds = 1;
        if (t < 0) {
            e.status = EvalStatus::failed;
            e.reason = "wrong result";
            return e;
        }
        e.seconds = t;
        e.samples = {t};
        return e;
    }
    std::vector<std::size_t> measured;

  private:
    const TuningSpace& space_;
    std::map<std::size_t, std::deque<double>> times_;
};

TEST(Confirmation, MeasuresTheFastestAgainInRotationAndKeepsEachMedian) {
    const RecordedSpace rs = testing::synthetic_space();
    // 0 was lucky once; 1 and 2 are within 10% of it; 3 is not and is never measured again.
    Noisy objective(rs.space, {{0, {0.90, 1.10, 1.12}}, {1, {0.95, 1.01, 0.99}}, {2, {0.98, 1.06, 1.04}}, {3, {1.5}}});
    Scripted s({0, 1, 2, 3});
    std::vector<std::pair<std::size_t, std::size_t>> confirmed;  // (config being measured, entry updated)
    std::size_t confirming = 0;
    TuneHooks hooks;
    hooks.confirming = [&](std::size_t c) { confirming = c; };
    hooks.confirmed = [&](const Trace& t, std::size_t entry) {
        EXPECT_EQ(t.entries[entry].config, confirming);
        confirmed.emplace_back(confirming, entry);
    };
    const Trace t = tune(objective, s, {}, hooks);
    EXPECT_EQ(t.stop_reason, StopReason::strategy_finished);
    EXPECT_EQ(t.confirmations, 6u);
    EXPECT_EQ(t.measurements(), 10u);
    // Fastest first in round one, rotated by one in round two.
    EXPECT_EQ(objective.measured, (std::vector<std::size_t>{0, 1, 2, 3, 0, 1, 2, 1, 2, 0}));
    ASSERT_EQ(confirmed.size(), 6u);
    EXPECT_DOUBLE_EQ(t.entries[0].evaluation.seconds, 1.10);
    EXPECT_EQ(t.entries[0].times, (std::vector<double>{0.90, 1.10, 1.12}));
    EXPECT_EQ(t.entries[0].evaluation.samples.size(), 3u);
    EXPECT_DOUBLE_EQ(t.entries[0].evaluation.cost_seconds, 3);
    EXPECT_DOUBLE_EQ(t.entries[1].evaluation.seconds, 0.99);
    EXPECT_DOUBLE_EQ(t.entries[2].evaluation.seconds, 1.04);
    EXPECT_EQ(t.entries[3].times.size(), 1u);
    EXPECT_EQ(t.best(), std::optional<std::size_t>(1));  // the lucky first measurement no longer wins
    EXPECT_NEAR(t.elapsed_seconds, 10, 0.1);             // and the strategy's time
}

// Tunes the scripted objective in id order with the stopping rule on: no judgement before the
// 10th evaluation, a chance of 0.5 there and 0.01 from the 11th on. The hooks must hear of a
// change only to an entry they were told of.
Trace tune_judged_from_the_tenth(Noisy& objective) {
    std::vector<std::optional<double>> chances(objective.space().size(), 0.01);
    std::fill(chances.begin(), chances.begin() + 9, std::nullopt);
    chances[9] = 0.5;
    Judging s(chances);
    std::size_t told = 0;
    TuneHooks hooks;
    hooks.evaluated = [&](const Trace& t) { told = t.entries.size(); };
    hooks.confirmed = [&](const Trace&, std::size_t entry) { EXPECT_LT(entry, told); };
    return tune(objective, s, Budget{0, 0, 0, 0.05}, hooks);
}

TEST(Tune, ANewBestFarAheadIsMeasuredAgainBeforeItIsBelieved) {
    const RecordedSpace rs = testing::synthetic_space();
    // 0 is the best of the first ten; 10 measures 10% faster once, then as fast as 0. The model is
    // sure from the 10th evaluation on; the margin is the floor's 2.8% (one sample each).
    std::map<std::size_t, std::deque<double>> times{{0, {1.00}}, {10, {0.90, 1.00, 1.01}}, {11, {1.05}}};
    for (std::size_t c = 1; c < 10; ++c) times[c] = {1.02 + 0.01 * static_cast<double>(c)};
    Noisy objective(rs.space, times);
    const Trace t = tune_judged_from_the_tenth(objective);
    // 10 fell 10% below the best: measured again at once (1.00), and a third time as the two
    // disagree by more than the margin: its median, 1.00, does not beat 0, which has held.
    EXPECT_EQ(t.entries.size(), 11u);
    EXPECT_EQ(t.stop_reason, StopReason::improvement_unlikely);
    const std::vector<std::size_t> search(objective.measured.begin(), objective.measured.begin() + 13);
    EXPECT_EQ(search, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10}));
    EXPECT_DOUBLE_EQ(t.entries[10].best_seconds, 1.00);  // 0's, not the lucky 0.90
    // Then the confirmation measures both twice more.
    EXPECT_EQ(t.entries[10].times.size(), 5u);
    EXPECT_EQ(t.best(), std::optional<std::size_t>(0));
}

// Without a rule to judge against the best, a lucky one is left to the confirmation.
TEST(Tune, AStrategyWithoutAStoppingRuleDoesNotMeasureANewBestAgainWhileSearching) {
    const RecordedSpace rs = testing::synthetic_space();
    Noisy objective(rs.space, {{0, {1.00}}, {1, {0.90, 1.00, 1.01}}, {2, {1.20}}});
    Scripted s({0, 1, 2});
    const Trace t = tune(objective, s, Budget{0, 0, 0, 0.05});
    const std::vector<std::size_t> search(objective.measured.begin(), objective.measured.begin() + 3);
    EXPECT_EQ(search, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(Tune, ABestThatFellByStepsIsMeasuredAgainBeforeTheSearchGoesOnForIt) {
    const RecordedSpace rs = testing::synthetic_space();
    // 0 is the best of the first half; 9 and then 10 each measure 2% faster than the best before
    // (less than the 2.8% margin, so neither is measured again at once), together 4%: the best
    // has not held. 10 was lucky: measured again it is as fast as 9.
    std::map<std::size_t, std::deque<double>> times{{0, {1.00}}, {9, {0.98}}, {10, {0.9604, 0.98, 0.98}}};
    for (std::size_t c = 1; c < 9; ++c) times[c] = {1.02 + 0.01 * static_cast<double>(c)};
    Noisy objective(rs.space, times);
    const Trace t = tune_judged_from_the_tenth(objective);
    // At 11 the model says stop but the best fell 4%: 0 and 10 measured again (10 now at 0.97,
    // the median of two), and 0 at 1.00 is not within the noise of it, so the search goes on;
    // at 12 the model says stop again: 10 measured a third time (0.98), 0 has reached its
    // three; 0.98 is within the noise of 1.00, the best has held.
    EXPECT_EQ(t.stop_reason, StopReason::improvement_unlikely);
    EXPECT_EQ(t.entries.size(), 12u);
    const std::vector<std::size_t> search(objective.measured.begin(), objective.measured.begin() + 16);
    EXPECT_EQ(search, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 10, 11, 0, 10}));
    EXPECT_DOUBLE_EQ(t.entries[10].times.front(), 0.9604);
    EXPECT_DOUBLE_EQ(t.entries[10].evaluation.seconds, 0.98);
}

TEST(Confirmation, ComesOutOfTheEvaluationBudgetOnlyWhenItCanBeSpared) {
    const RecordedSpace rs = testing::synthetic_space();
    std::map<std::size_t, std::deque<double>> steady;
    for (std::size_t c = 0; c < rs.space.size(); ++c) steady[c] = {1.0 + 0.001 * static_cast<double>(c % 7)};
    {
        Noisy objective(rs.space, steady);
        auto s = make_strategy("random", rs.space, 1);
        const Trace t = tune(objective, *s, Budget{20, 0, 0});
        EXPECT_EQ(t.entries.size(), 14u);  // 3 candidates x 2 rounds reserved
        EXPECT_EQ(t.confirmations, 6u);
        EXPECT_EQ(t.measurements(), 20u);
    }
    {
        Noisy objective(rs.space, steady);
        auto s = make_strategy("random", rs.space, 1);
        const Trace t = tune(objective, *s, Budget{12, 0, 0});  // not more than twice the reserve: all search
        EXPECT_EQ(t.entries.size(), 12u);
        EXPECT_EQ(t.confirmations, 0u);
    }
    {
        Noisy objective(rs.space, steady);
        auto s = make_strategy("random", rs.space, 1);
        const Trace t = tune(objective, *s, Budget{20, 0, 0}, {}, Confirmation{0});
        EXPECT_EQ(t.entries.size(), 20u);
        EXPECT_EQ(t.confirmations, 0u);
    }
    {
        // Time: every measurement costs 1 s; the reserve's 6 s are kept from the 20 s.
        Noisy objective(rs.space, steady);
        auto s = make_strategy("random", rs.space, 1);
        const Trace t = tune(objective, *s, Budget{0, 20, 0});
        EXPECT_EQ(t.entries.size(), 14u);
        EXPECT_EQ(t.confirmations, 6u);
        EXPECT_NEAR(t.elapsed_seconds, 20, 0.1);
    }
}

TEST(Confirmation, AConfigurationThatFailsWhenMeasuredAgainIsNotChosen) {
    const RecordedSpace rs = testing::synthetic_space();
    Noisy objective(rs.space, {{0, {0.9, -1}}, {1, {0.95}}});
    Scripted s({0, 1});
    const Trace t = tune(objective, s, {});
    EXPECT_EQ(t.entries[0].evaluation.status, EvalStatus::failed);
    EXPECT_EQ(t.entries[0].evaluation.reason, "measured again: wrong result");
    EXPECT_EQ(t.best(), std::optional<std::size_t>(1));
    EXPECT_EQ(t.confirmations, 3u);  // 0 once (then failed, skipped), 1 twice
}

TEST(Confirmation, NeitherRecordedTimesNorAnInterruptedSessionAreConfirmed) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective replay(rs);
    auto all = make_strategy("exhaustive", rs.space, 1);
    EXPECT_EQ(tune(replay, *all, {}).confirmations, 0u);

    Noisy objective(rs.space, {{0, {1.0}}, {1, {1.0}}});
    Scripted s({0, 1, 2});
    TuneHooks hooks;
    std::size_t evaluated = 0;
    hooks.evaluated = [&](const Trace&) { ++evaluated; };
    hooks.interrupted = [&] { return evaluated == 2; };
    const Trace t = tune(objective, s, {}, hooks);
    EXPECT_EQ(t.stop_reason, StopReason::interrupted);
    EXPECT_EQ(t.confirmations, 0u);
}

TEST(Confirmation, AnInterruptionDuringItEndsTheSessionAsInterrupted) {
    const RecordedSpace rs = testing::synthetic_space();
    Noisy objective(rs.space, {{0, {1.0}}, {1, {1.0}}});
    Scripted s({0, 1});
    TuneHooks hooks;
    std::size_t confirmed = 0;
    hooks.confirmed = [&](const Trace&, std::size_t) { ++confirmed; };
    hooks.interrupted = [&] { return confirmed == 1; };
    const Trace t = tune(objective, s, {}, hooks);
    EXPECT_EQ(t.stop_reason, StopReason::interrupted);
    EXPECT_EQ(t.confirmations, 1u);
}

}  // namespace
}  // namespace memwall
