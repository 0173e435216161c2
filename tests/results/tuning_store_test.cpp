#include "results/tuning_store.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/machine.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

using test::TempDir;

TuningSessionInfo sample_session(const std::string& backend = "cpu", const std::string& problem = R"({"seq":2048})",
                                 const std::string& started_at = "2024-05-01T10:00:00.000Z") {
    TuningSessionInfo s;
    s.started_at = started_at;
    s.host = "hostA";
    s.device = "AMD EPYC 9B14, 2 threads";
    s.backend = backend;
    s.family = "attention";
    s.variant = "flash";
    s.problem = problem;
    s.strategy = "guided";
    s.seed = 7;
    s.budget_evaluations = 20;
    s.budget_stale = 5;
    s.time_source = TimeSource::measured;
    s.space_size = 36;
    s.command_line = "memwall tune --family attention --variant flash";
    s.memwall_version = "0.1.0";
    return s;
}

TrialRecord ok_trial(std::int64_t index, const std::string& config, double seconds) {
    TrialRecord t;
    t.index = index;
    t.config = config;
    t.seconds = seconds;
    t.cost_seconds = 0.5;
    t.elapsed_seconds = 0.5 * static_cast<double>(index + 1);
    t.samples = {seconds * 1.01, seconds, seconds * 0.99};
    t.counters = {{"flops", 1e9, "FLOP", CounterSource::model}, {"dram__bytes_read.sum", 4e6, "B", CounterSource::emu}};
    return t;
}

TrialRecord failed_trial(std::int64_t index, const std::string& config) {
    TrialRecord t;
    t.index = index;
    t.config = config;
    t.status = "failed";
    t.reason = "wrong result: max relative error 0.3";
    return t;
}

struct TuningStoreTest : ::testing::Test {
    TempDir dir;
    Store store = Store::open(dir.file("t.db"), Store::Mode::create);
};

TEST_F(TuningStoreTest, AConfirmationUpdatesATrialsTimeMeasurementsAndSamples) {
    const std::int64_t id = begin_tuning_session(store, sample_session());
    save_trial(store, id, ok_trial(0, R"({"Br":32,"Bc":64})", 1e-3));  // lucky
    save_trial(store, id, ok_trial(1, R"({"Br":64,"Bc":64})", 1.1e-3));
    EXPECT_EQ(tuning_session(store, id)->best_index, 0);

    TrialRecord again = ok_trial(0, R"({"Br":32,"Bc":64})", 1.2e-3);
    again.measurements = 3;
    again.samples = {1e-3, 1.2e-3, 1.25e-3, 1.2e-3};
    again.cost_seconds = 1.5;
    update_trial(store, id, again);
    const auto rows = trials(store, id);
    EXPECT_EQ(rows[0].measurements, 3);
    EXPECT_EQ(rows[0].samples, again.samples);
    EXPECT_DOUBLE_EQ(*rows[0].seconds, 1.2e-3);
    EXPECT_DOUBLE_EQ(rows[0].cost_seconds, 1.5);
    EXPECT_EQ(rows[0].counters.size(), 2u);  // kept
    EXPECT_EQ(rows[1].measurements, 1);
    EXPECT_EQ(tuning_session(store, id)->best_index, 1);

    TrialRecord failed = failed_trial(1, R"({"Br":64,"Bc":64})");
    failed.measurements = 2;
    update_trial(store, id, failed);
    EXPECT_EQ(trials(store, id)[1].status, "failed");
    EXPECT_TRUE(trials(store, id)[1].samples.empty());
    EXPECT_EQ(tuning_session(store, id)->best_index, 0);

    EXPECT_THROW(update_trial(store, id, ok_trial(5, "{}", 1e-3)), std::logic_error);
    TrialRecord none = ok_trial(0, "{}", 1e-3);
    none.measurements = 0;
    EXPECT_THROW(update_trial(store, id, none), std::logic_error);
}

TEST_F(TuningStoreTest, SessionAndTrialsRoundTrip) {
    const TuningSessionInfo in = sample_session();
    const std::int64_t id = begin_tuning_session(store, in);
    save_trial(store, id, ok_trial(0, R"({"Br":32,"Bc":64})", 2e-3));
    save_trial(store, id, failed_trial(1, R"({"Br":128,"Bc":128})"));
    save_trial(store, id, ok_trial(2, R"({"Br":64,"Bc":128})", 1.5e-3));
    save_trial(store, id, ok_trial(3, R"({"Br":16,"Bc":16})", 1.5e-3));

    auto s = tuning_session(store, id);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->info.status, RunStatus::running);
    EXPECT_EQ(s->info.family, in.family);
    EXPECT_EQ(s->info.problem, in.problem);
    EXPECT_EQ(s->info.seed, in.seed);
    EXPECT_EQ(s->info.budget_evaluations, 20);
    EXPECT_EQ(s->info.budget_stale, 5);
    EXPECT_EQ(s->info.time_source, TimeSource::measured);
    EXPECT_EQ(s->info.space_size, 36);
    EXPECT_EQ(s->trials, 4);
    // Of two equal best times the first found is the session's best.
    EXPECT_EQ(s->best_index, 2);
    EXPECT_EQ(s->best_seconds, 1.5e-3);
    EXPECT_EQ(s->best_config, R"({"Br":64,"Bc":128})");

    finish_tuning_session(store, id, RunStatus::complete, "evaluations");
    s = tuning_session(store, id);
    EXPECT_EQ(s->info.status, RunStatus::complete);
    EXPECT_EQ(s->info.stop_reason, "evaluations");
    EXPECT_FALSE(s->info.finished_at.empty());

    const auto ts = trials(store, id);
    ASSERT_EQ(ts.size(), 4u);
    EXPECT_EQ(ts[0].samples, ok_trial(0, "", 2e-3).samples);
    ASSERT_EQ(ts[0].counters.size(), 2u);
    EXPECT_EQ(ts[0].counters[0].name, "dram__bytes_read.sum");
    EXPECT_EQ(ts[0].counters[0].source, CounterSource::emu);
    EXPECT_EQ(ts[1].status, "failed");
    EXPECT_EQ(ts[1].reason, "wrong result: max relative error 0.3");
    EXPECT_FALSE(ts[1].seconds);
    EXPECT_TRUE(ts[1].samples.empty());
    EXPECT_EQ(ts[3].elapsed_seconds, 2.0);
    EXPECT_TRUE(trials(store, id, false)[0].samples.empty());
}

TEST_F(TuningStoreTest, SessionWithoutOkTrialHasNoBest) {
    const std::int64_t id = begin_tuning_session(store, sample_session());
    save_trial(store, id, failed_trial(0, "{}"));
    const auto s = tuning_session(store, id);
    EXPECT_EQ(s->trials, 1);
    EXPECT_FALSE(s->best_index);
    EXPECT_FALSE(s->best_seconds);
    EXPECT_FALSE(tuning_session(store, id + 1));
}

TEST_F(TuningStoreTest, InvalidTrialsAreRejectedWhole) {
    const std::int64_t id = begin_tuning_session(store, sample_session());
    save_trial(store, id, ok_trial(0, "{}", 1e-3));
    EXPECT_THROW(save_trial(store, id, ok_trial(0, "{}", 1e-3)), std::logic_error);
    TrialRecord untimed = ok_trial(1, "{}", 1e-3);
    untimed.seconds.reset();
    EXPECT_THROW(save_trial(store, id, untimed), std::logic_error);
    TrialRecord unknown = failed_trial(1, "{}");
    unknown.status = "exploded";
    EXPECT_THROW(save_trial(store, id, unknown), std::logic_error);
    EXPECT_THROW(save_trial(store, id + 1, ok_trial(1, "{}", 1e-3)), std::logic_error);
    EXPECT_THROW(finish_tuning_session(store, id + 1, RunStatus::complete, ""), std::logic_error);
    EXPECT_EQ(trials(store, id).size(), 1u);
}

TEST_F(TuningStoreTest, BestTunedConfigMatchesDeviceBackendKernelAndProblem) {
    const std::int64_t a = begin_tuning_session(store, sample_session());
    save_trial(store, a, ok_trial(0, R"({"Br":32})", 3e-3));
    save_trial(store, a, ok_trial(1, R"({"Br":64})", 2e-3));
    const std::int64_t b =
        begin_tuning_session(store, sample_session("cpu", R"({"seq":2048})", "2024-05-02T10:00:00.000Z"));
    save_trial(store, b, ok_trial(0, R"({"Br":16})", 1e-3));
    const std::int64_t emu = begin_tuning_session(store, sample_session("cuda-emu"));
    save_trial(store, emu, ok_trial(0, R"({"Br":128})", 1e-6));
    const std::int64_t other = begin_tuning_session(store, sample_session("cpu", R"({"seq":4096})"));
    save_trial(store, other, ok_trial(0, R"({"Br":8})", 1e-7));

    const TuningSessionInfo s = sample_session();
    auto best = best_tuned_config(store, s.device, "cpu", "attention", "flash", R"({"seq":2048})");
    ASSERT_TRUE(best);
    EXPECT_EQ(best->config.canonical(), R"({"Br":16})");
    EXPECT_EQ(best->config.integer("Br"), 16);
    EXPECT_EQ(best->seconds, 1e-3);
    EXPECT_EQ(best->session_id, b);
    best = best_tuned_config(store, s.device, "cuda-emu", "attention", "flash", R"({"seq":2048})");
    ASSERT_TRUE(best);
    EXPECT_EQ(best->config.canonical(), R"({"Br":128})");
    EXPECT_FALSE(best_tuned_config(store, "another device", "cpu", "attention", "flash", R"({"seq":2048})"));
    EXPECT_FALSE(best_tuned_config(store, s.device, "cpu", "attention", "naive", R"({"seq":2048})"));
}

TEST_F(TuningStoreTest, SessionsOldestFirst) {
    const auto b = begin_tuning_session(store, sample_session("cpu", "{}", "2024-05-02T00:00:00.000Z"));
    const auto a = begin_tuning_session(store, sample_session("cpu", "{}", "2024-05-01T00:00:00.000Z"));
    const auto all = tuning_sessions(store);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].info.id, a);
    EXPECT_EQ(all[1].info.id, b);
}

TEST(TimeSourceNames, RoundTrip) {
    for (TimeSource s : {TimeSource::measured, TimeSource::recorded, TimeSource::predicted})
        EXPECT_EQ(time_source_from(to_string(s)), s);
    EXPECT_FALSE(time_source_from("guessed"));
}

TEST_F(TuningStoreTest, AnAbandonedSessionsUnconfirmedBestIsPassedOverUnlessAsked) {
    TuningSessionInfo killed = sample_session();
    killed.host = host_name();
    killed.owner = Owner::self();
    killed.owner.start += "0";  // this pid, but another process: the session's owner is gone
    const std::int64_t k = begin_tuning_session(store, killed);
    save_trial(store, k, ok_trial(0, R"({"Br":16})", 1e-3));
    EXPECT_EQ(tuning_session(store, k)->info.status, RunStatus::abandoned);
    const std::int64_t live = begin_tuning_session(store, sample_session());
    save_trial(store, live, ok_trial(0, R"({"Br":32})", 2e-3));

    const TuningSessionInfo s = sample_session();
    auto best = best_tuned_config(store, s.device, "cpu", "attention", "flash", R"({"seq":2048})");
    ASSERT_TRUE(best);
    EXPECT_EQ(best->session_id, live);
    best = best_tuned_config(store, s.device, "cpu", "attention", "flash", R"({"seq":2048})", true);
    ASSERT_TRUE(best);
    EXPECT_EQ(best->session_id, k);
    // Confirmed before the session was killed: taken.
    TrialRecord confirmed = ok_trial(0, R"({"Br":16})", 1e-3);
    confirmed.measurements = 3;
    update_trial(store, k, confirmed);
    EXPECT_EQ(best_tuned_config(store, s.device, "cpu", "attention", "flash", R"({"seq":2048})")->session_id, k);
}

}  // namespace
}  // namespace memwall
