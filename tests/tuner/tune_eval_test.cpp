#include "tuner/tune_eval.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "tuner/random_baseline.hpp"

namespace memwall {
namespace {

const std::string kData = std::string(MEMWALL_TEST_DATA) + "/tuning/";

// The same kernel recorded on "another GPU" (elsewhere.json), twice as slow everywhere.
RecordedSpace twice_as_slow_elsewhere(const RecordedSpace& rs) {
    RecordedSpace elsewhere = rs;
    elsewhere.origin = "elsewhere.json";
    elsewhere.device = "another GPU";
    for (Evaluation& e : elsewhere.results) e.seconds *= 2;
    return elsewhere;
}

TEST(TuneEval, ScoresEveryStrategyOnEverySpace) {
    const RecordedSpace conv = load_recorded_space(kData + "convolution_milo_A100_slice.json.gz");
    const RecordedSpace pnpoly = load_recorded_space(kData + "pnpoly_RTX_2080Ti_slice.json");
    TuneEvalOptions options;
    options.seeds = 10;
    double progress = 0;
    std::size_t calls = 0;
    options.progress = [&](double f) {
        progress = std::max(progress, f);
        ++calls;
    };
    const TuneEvalTable table = tune_eval({&conv, &pnpoly}, {"exhaustive", "random", "guided"}, options);

    EXPECT_EQ(calls, 2u * 3u * 10u);  // once per run
    EXPECT_EQ(progress, 1.0);
    ASSERT_EQ(table.spaces.size(), 2u);
    const TuneEvalSpace& s = table.spaces[0];
    EXPECT_EQ(s.name, "convolution_milo_A100_slice.json.gz");
    EXPECT_EQ(s.size, 88u);
    EXPECT_EQ(s.ok, 84u);
    const RandomBaseline b(conv);
    EXPECT_EQ(s.budget, b.budget());
    EXPECT_DOUBLE_EQ(s.random_optimum, b.expected_draws_to(b.optimum()));
    EXPECT_FALSE(s.has_counters);
    EXPECT_TRUE(table.spaces[1].has_counters);
    ASSERT_EQ(s.rows.size(), 3u);

    // Exhaustive ignores its seed: every run is the same.
    const TuneEvalRow& exhaustive = s.rows[0];
    EXPECT_EQ(exhaustive.strategy, "exhaustive");
    // Its sd is that of ten equal scores: zero up to the rounding of their mean, which is off by
    // at most about n ulps of the score (the sum of n values rounds at each of n additions).
    EXPECT_LE(exhaustive.score_sd, 10 * 4 * std::numeric_limits<double>::epsilon() * std::abs(exhaustive.score));
    EXPECT_EQ(exhaustive.optimum.q1, exhaustive.optimum.q3);
    EXPECT_EQ(exhaustive.optimum.reached, 10u);
    // Every run goes on until the optimum is found.
    for (const auto& row : s.rows) {
        EXPECT_EQ(row.optimum.reached, 10u) << row.strategy;
        EXPECT_LE(row.within10.median, row.within5.median);
        EXPECT_LE(row.within5.median, row.optimum.median);
    }
    ASSERT_EQ(table.mean_scores.size(), 3u);
    EXPECT_NEAR(table.mean_scores[2].second, (s.rows[2].score + table.spaces[1].rows[2].score) / 2, 1e-12);

    const std::string text = render_tune_eval(table);
    EXPECT_NE(text.find("pnpoly_RTX_2080Ti_slice.json"), std::string::npos);
    EXPECT_NE(text.find("guided"), std::string::npos);
    EXPECT_NE(text.find("mean score over 2 spaces"), std::string::npos);
}

TEST(TuneEval, GivesGuidedTheDeviceIndependentCounters) {
    const RecordedSpace conv = load_recorded_space(kData + "convolution_milo_A100_slice.json");
    const RecordedSpace pnpoly = load_recorded_space(kData + "pnpoly_RTX_2080Ti_slice.json");
    TuneEvalOptions options;
    options.seeds = 5;
    std::size_t runs = 0;
    options.progress = [&](double) { ++runs; };
    const TuneEvalTable table = tune_eval({&conv, &pnpoly}, {"guided-online", "guided"}, options);
    // No counters in a Kernel Tuner cache: guided has no prior there and searches as
    // guided-online (the strategy tests check that), so those runs are not repeated.
    EXPECT_TRUE(table.spaces[0].prior_counters.empty());
    EXPECT_EQ(table.spaces[0].rows[0].score, table.spaces[0].rows[1].score);
    EXPECT_EQ(table.spaces[0].rows[0].within10.median, table.spaces[0].rows[1].within10.median);
    EXPECT_EQ(runs, 3u * 5u);
    const auto& names = table.spaces[1].prior_counters;
    EXPECT_NE(std::find(names.begin(), names.end(), "smsp__inst_executed.sum"), names.end());
    EXPECT_EQ(std::find(names.begin(), names.end(), "dram__bytes_read.sum"), names.end());
    const std::string text = render_tune_eval(table);
    EXPECT_NE(text.find("prior: " + std::to_string(names.size()) + " device-independent counters"), std::string::npos);
    EXPECT_NE(text.find("guided is also given"), std::string::npos);
    // Without guided nobody is given a prior; without guided-online, guided runs everywhere.
    EXPECT_TRUE(tune_eval({&pnpoly}, {"guided-online"}, options).spaces[0].prior_counters.empty());
    runs = 0;
    tune_eval({&conv}, {"guided"}, options);
    EXPECT_EQ(runs, 5u);
}

TEST(TuneEval, CapsRunsAndReportsThoseThatNeverGotThere) {
    const RecordedSpace conv = load_recorded_space(kData + "convolution_milo_A100_slice.json");
    TuneEvalOptions options;
    options.seeds = 4;
    options.max_evaluations = 1;
    const TuneEvalTable table = tune_eval({&conv}, {"exhaustive"}, options);
    const TuneEvalRow& row = table.spaces[0].rows[0];
    EXPECT_EQ(row.optimum.reached, 0u);
    EXPECT_TRUE(std::isinf(row.optimum.median));
    EXPECT_NE(render_tune_eval(table).find("never"), std::string::npos);
}

TEST(TuneEval, RejectsUnknownStrategiesAndZeroSeeds) {
    const RecordedSpace conv = load_recorded_space(kData + "convolution_milo_A100_slice.json");
    EXPECT_THROW(tune_eval({&conv}, {"bayes"}, {}), UsageError);
    TuneEvalOptions none;
    none.seeds = 0;
    EXPECT_THROW(tune_eval({&conv}, {"random"}, none), UsageError);
}

TEST(TuneEval, ReplaysWithTheStoppingRuleAndSaysWhereItStopped) {
    const RecordedSpace conv = load_recorded_space(kData + "convolution_milo_A100_slice.json.gz");
    const RecordedSpace elsewhere = twice_as_slow_elsewhere(conv);  // the same ranking: guided starts at the optimum
    TuneEvalOptions options;
    options.seeds = 5;
    options.priors = {&elsewhere};
    options.stop_chance = 0.05;
    const TuneEvalTable table = tune_eval({&conv}, {"random", "guided"}, options);
    EXPECT_DOUBLE_EQ(table.stop_chance, 0.05);
    const TuneEvalRow& random = table.spaces[0].rows[0];
    const TuneEvalRow& guided = table.spaces[0].rows[1];
    EXPECT_EQ(random.stopped.reached, 0u);  // no model, no rule
    EXPECT_TRUE(std::isinf(random.stopped.median));
    // Sure of its optimum from the first evaluation, guided stops once it may judge (10
    // evaluations, the best held for half of them), before the score's budget runs out.
    EXPECT_EQ(guided.stopped.reached, 5u);
    EXPECT_GE(guided.stopped.q1, 10.0);
    EXPECT_LT(guided.stopped.q3, static_cast<double>(table.spaces[0].budget));
    EXPECT_EQ(guided.within10.median, 1.0);
    const std::string text = render_tune_eval(table);
    EXPECT_NE(text.find("stopped by the rule"), std::string::npos);
    EXPECT_NE(text.find("ran to the optimum or their end)\n"), std::string::npos);

    options.stop_chance = 1.5;
    EXPECT_THROW(tune_eval({&conv}, {"guided"}, options), UsageError);
}

TEST(TuneEval, ComparesAStrategyWithAPriorWithItsPriorFreeTwin) {
    const RecordedSpace conv = load_recorded_space(kData + "convolution_milo_A100_slice.json.gz");
    TuneEvalOptions options;
    options.seeds = 20;
    // Without a prior guided searches as guided-online does: the same runs, a ratio of exactly 1,
    // and an interval about it as wide as the seeds' spread.
    TuneEvalTable table = tune_eval({&conv}, {"guided-online", "guided"}, options);
    const TuneEvalRow& same = table.spaces[0].rows[1];
    EXPECT_TRUE(table.spaces[0].rows[0].versus.empty());  // it reads no prior
    EXPECT_EQ(same.versus, "guided-online");
    EXPECT_EQ(same.versus_ratio, 1.0);
    EXPECT_LT(same.versus_lo, 1.0);
    EXPECT_GT(same.versus_hi, 1.0);
    EXPECT_NE(render_tune_eval(table).find("guided vs guided-online, evaluations to within 10%: median ratio 1.00 ["),
              std::string::npos);
    EXPECT_NE(render_tune_eval(table).find("], within the noise\n"), std::string::npos);

    // A prior that ranks as the target does: guided starts at the optimum, every seed.
    const RecordedSpace elsewhere = twice_as_slow_elsewhere(conv);
    options.priors = {&elsewhere};
    table = tune_eval({&conv}, {"guided-online", "guided"}, options);
    const TuneEvalRow& online = table.spaces[0].rows[0];
    const TuneEvalRow& guided = table.spaces[0].rows[1];
    EXPECT_EQ(guided.within10.median, 1.0);
    EXPECT_DOUBLE_EQ(guided.versus_ratio, 1.0 / online.within10.median);
    EXPECT_LE(guided.versus_lo, guided.versus_ratio);
    EXPECT_GE(guided.versus_hi, guided.versus_ratio);
    EXPECT_LT(guided.versus_hi, 1.0);
    EXPECT_NE(render_tune_eval(table).find("faster beyond the noise"), std::string::npos);
    // Without the twin there is nothing to compare with.
    table = tune_eval({&conv}, {"random", "guided"}, options);
    EXPECT_TRUE(table.spaces[0].rows[1].versus.empty());
}

TEST(TuneEval, GivesGuidedTheOtherDevicesRecordingsOfTheSameKernel) {
    const RecordedSpace conv = load_recorded_space(kData + "convolution_milo_A100_slice.json.gz");
    const RecordedSpace pnpoly = load_recorded_space(kData + "pnpoly_RTX_2080Ti_slice.json");
    const RecordedSpace elsewhere = twice_as_slow_elsewhere(conv);
    TuneEvalOptions options;
    options.seeds = 5;
    options.priors = {&elsewhere};
    const TuneEvalTable table = tune_eval({&conv, &pnpoly}, {"guided-online", "guided"}, options);
    ASSERT_EQ(table.spaces[0].prior_devices.size(), 1u);
    EXPECT_NE(table.spaces[0].prior_devices[0].find("another GPU (elsewhere.json)"), std::string::npos);
    EXPECT_TRUE(table.spaces[1].prior_devices.empty());
    // The same ranking: guided's first configuration is the optimum.
    EXPECT_EQ(table.spaces[0].rows[1].within10.median, 1.0);
    EXPECT_NE(render_tune_eval(table).find("prior: the times on another GPU"), std::string::npos);

    // A prior no space can use: the same device's, another kernel's.
    options.priors = {&conv};
    EXPECT_THROW(tune_eval({&conv}, {"guided"}, options), UsageError);
    options.priors = {&pnpoly};
    EXPECT_THROW(tune_eval({&conv}, {"guided"}, options), UsageError);
}

}  // namespace
}  // namespace memwall
