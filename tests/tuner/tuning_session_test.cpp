#include "tuner/tuning_session.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/temp_dir.hpp"
#include "tests/support/synthetic_space.hpp"
#include "tuner/replay.hpp"
#include "tuner/strategy.hpp"

namespace memwall {
namespace {

TuningSessionInfo replay_info() {
    TuningSessionInfo info;
    info.host = "h";
    info.device = "RTX test";
    info.backend = "replay";
    info.variant = "synthetic";
    info.problem = "{}";
    info.strategy = "random";
    info.time_source = TimeSource::recorded;
    info.source_file = "synthetic.json";
    info.command_line = "memwall tune --replay synthetic.json";
    info.memwall_version = "0";
    return info;
}

TEST(TuningSession, StoresEveryEvaluationAsItCompletes) {
    test::TempDir d;
    Store store = Store::open(d.file("t.db"), Store::Mode::create);
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    auto strategy = make_strategy("exhaustive", rs.space, 1);  // x = 0 first: failures among the 30
    SessionRecorder recorder(store, replay_info(), rs.space);
    TuneHooks hooks;
    std::size_t stored_before_next = 0;
    hooks.proposed = [&](std::size_t) { stored_before_next = trials(store, recorder.id(), false).size(); };
    hooks.evaluated = [&](const Trace& t) { recorder.record(t); };
    const Trace trace = tune(objective, *strategy, Budget{30, 0, 0}, hooks);
    EXPECT_EQ(stored_before_next, 29u);  // the 29 earlier ones were committed before the 30th ran
    const auto before_finish = tuning_session(store, recorder.id());
    EXPECT_EQ(before_finish->info.status, RunStatus::running);
    recorder.finish(trace);

    const auto s = tuning_session(store, recorder.id()).value();
    EXPECT_EQ(s.info.status, RunStatus::complete);
    EXPECT_EQ(s.info.stop_reason, "evaluations");
    EXPECT_EQ(s.info.space_size, static_cast<std::int64_t>(rs.space.size()));
    EXPECT_EQ(s.info.time_source, TimeSource::recorded);
    EXPECT_EQ(s.trials, 30);
    const auto best = trace.best().value();
    EXPECT_EQ(s.best_index, static_cast<std::int64_t>(best));
    EXPECT_DOUBLE_EQ(s.best_seconds.value(), trace.entries[best].evaluation.seconds);
    EXPECT_EQ(s.best_config, rs.space.params(trace.entries[best].config).canonical());

    const auto rows = trials(store, recorder.id());
    ASSERT_EQ(rows.size(), 30u);
    std::size_t failed = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Evaluation& e = trace.entries[i].evaluation;
        EXPECT_EQ(rows[i].config, rs.space.params(trace.entries[i].config).canonical());
        EXPECT_EQ(rows[i].status, to_string(e.status));
        EXPECT_EQ(rows[i].seconds.has_value(), e.ok());
        EXPECT_DOUBLE_EQ(rows[i].elapsed_seconds, trace.entries[i].elapsed_seconds);
        if (!e.ok()) {
            ++failed;
            EXPECT_EQ(rows[i].reason, "RuntimeFailedConfig");
        }
    }
    EXPECT_EQ(failed, 5u);
}

TEST(TuningSession, AnInterruptedSearchIsMarkedInterrupted) {
    test::TempDir d;
    Store store = Store::open(d.file("t.db"), Store::Mode::create);
    const RecordedSpace rs = testing::synthetic_space();
    ReplayObjective objective(rs);
    auto strategy = make_strategy("exhaustive", rs.space, 1);
    SessionRecorder recorder(store, replay_info(), rs.space);
    TuneHooks hooks;
    hooks.evaluated = [&](const Trace& t) { recorder.record(t); };
    hooks.interrupted = [&] { return trials(store, recorder.id(), false).size() == 3; };
    const Trace trace = tune(objective, *strategy, {}, hooks);
    recorder.finish(trace);
    const auto s = tuning_session(store, recorder.id()).value();
    EXPECT_EQ(s.info.status, RunStatus::interrupted);
    EXPECT_EQ(s.info.stop_reason, "interrupted");
    EXPECT_EQ(s.trials, 3);
}

TEST(TuningSession, TrialRecordKeepsSamplesAndCounters) {
    const RecordedSpace rs = testing::synthetic_space();
    TraceEntry e;
    e.config = 7;
    e.evaluation.seconds = 2e-3;
    e.evaluation.samples = {2e-3, 2.1e-3, 1.9e-3};
    e.evaluation.counters = {{"flops", 10, "FLOP", CounterSource::model}};
    e.evaluation.cost_seconds = 0.5;
    e.elapsed_seconds = 3;
    const TrialRecord t = trial_record(rs.space, e, 4);
    EXPECT_EQ(t.index, 4);
    EXPECT_EQ(t.config, rs.space.params(7).canonical());
    EXPECT_EQ(t.status, "ok");
    EXPECT_DOUBLE_EQ(t.seconds.value(), 2e-3);
    EXPECT_EQ(t.samples.size(), 3u);
    ASSERT_EQ(t.counters.size(), 1u);
    EXPECT_DOUBLE_EQ(t.cost_seconds, 0.5);
    EXPECT_DOUBLE_EQ(t.elapsed_seconds, 3);

    e.evaluation.status = EvalStatus::failed;
    e.evaluation.reason = "wrong result: rel. L2 error 1";
    const TrialRecord f = trial_record(rs.space, e, 5);
    EXPECT_EQ(f.status, "failed");
    EXPECT_FALSE(f.seconds);  // a failure has no time, so it can never be the best
    EXPECT_EQ(f.reason, "wrong result: rel. L2 error 1");
}

TEST(TuningSession, TimesAreLabelledBySource) {
    EXPECT_EQ(time_label(TimeSource::measured, "AMD EPYC"), "");
    EXPECT_EQ(time_label(TimeSource::recorded, "A100"), "recorded on A100");
    EXPECT_EQ(time_label(TimeSource::predicted, "H100 SXM"), "predicted (H100 SXM roofline)");
}

}  // namespace
}  // namespace memwall
