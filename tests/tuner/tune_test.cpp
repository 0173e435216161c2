#include "tuner/tune.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "synthetic_space.hpp"
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
    EXPECT_EQ(t.stop_reason, "strategy finished");
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
    EXPECT_EQ(t.stop_reason, "evaluations");
    auto all = make_strategy("exhaustive", rs.space, 1);
    const Trace full = tune(objective, *all, {});
    EXPECT_EQ(full.entries.size(), rs.space.size());
    EXPECT_EQ(full.stop_reason, "space exhausted");
}

TEST(Tune, StopsAtTheTimeBudget) {
    const RecordedSpace rs = testing::synthetic_space();  // every evaluation costs 1 s
    ReplayObjective objective(rs);
    auto s = make_strategy("random", rs.space, 3);
    const Trace t = tune(objective, *s, Budget{0, 5.5, 0});
    EXPECT_EQ(t.entries.size(), 6u);
    EXPECT_EQ(t.stop_reason, "time");
    EXPECT_GE(t.entries.back().elapsed_seconds, 6.0);
}

TEST(Tune, StopsAfterEvaluationsWithoutImprovement) {
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    // 1.2 ms, then three slower ones: the third without improvement stops the run.
    Scripted s({id(rs, 4, 1, 1), id(rs, 3, 3, 3), id(rs, 2, 2, 2), id(rs, 1, 1, 1), id(rs, 4, 1, 2)});
    const Trace t = tune(objective, s, Budget{0, 0, 3});
    EXPECT_EQ(t.entries.size(), 4u);
    EXPECT_EQ(t.stop_reason, "no improvement");
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
    EXPECT_EQ(t.stop_reason, "interrupted");
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

}  // namespace
}  // namespace memwall
