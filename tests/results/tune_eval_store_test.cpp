#include "results/tune_eval_store.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "tests/support/synthetic_space.hpp"
#include "tests/support/temp_dir.hpp"
#include "tuner/tune_eval.hpp"

namespace memwall {
namespace {

TuneEvalTable small_table() {
    static const RecordedSpace rs = testing::synthetic_space();
    TuneEvalOptions o;
    o.seeds = 4;
    o.threads = 1;
    return tune_eval({&rs}, {"random", "exhaustive"}, o);
}

TEST(TuneEvalStore, RoundTripsTheTable) {
    test::TempDir d;
    Store store = Store::open(d.file("t.db"), Store::Mode::create);
    TuneEvalTable table = small_table();
    // A strategy that never reached the optimum in some seeds: its quartiles are infinite.
    table.spaces[0].rows[1].optimum.q3 = std::numeric_limits<double>::infinity();
    // Replayed with the stopping rule: where it stopped random's runs (made up: it stops none).
    table.stop_chance = 0.05;
    table.spaces[0].rows[0].stopped = {12, 15, std::numeric_limits<double>::infinity(), 3};
    // Compared with a twin (made up: exhaustive reads no prior), one bound infinite.
    table.spaces[0].rows[1].versus = "random";
    table.spaces[0].rows[1].versus_ratio = 0.5;
    table.spaces[0].rows[1].versus_lo = 0.25;
    table.spaces[0].rows[1].versus_hi = std::numeric_limits<double>::infinity();
    const std::int64_t id = save_tune_eval(store, table, {"", "host", "abc123", "memwall tune-eval x", "0.1"});
    EXPECT_FALSE(load_tune_eval(store, id + 1));

    const TuneEvalTable back = load_tune_eval(store, id).value();
    EXPECT_EQ(back.seeds, 4u);
    EXPECT_DOUBLE_EQ(back.stop_chance, 0.05);
    ASSERT_EQ(back.spaces.size(), 1u);
    const TuneEvalSpace& a = table.spaces[0];
    const TuneEvalSpace& b = back.spaces[0];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.size, a.size);
    EXPECT_EQ(b.ok, a.ok);
    EXPECT_EQ(b.budget, a.budget);
    EXPECT_DOUBLE_EQ(b.optimum_seconds, a.optimum_seconds);
    EXPECT_DOUBLE_EQ(b.random_within5, a.random_within5);
    ASSERT_EQ(b.rows.size(), 2u);
    // Strategies come back in name order: exhaustive, random.
    EXPECT_EQ(b.rows[0].strategy, "exhaustive");
    EXPECT_DOUBLE_EQ(b.rows[0].score, a.rows[1].score);
    EXPECT_TRUE(std::isinf(b.rows[0].optimum.q3));
    EXPECT_DOUBLE_EQ(b.rows[0].optimum.median, a.rows[1].optimum.median);
    EXPECT_EQ(b.rows[0].within5.reached, a.rows[1].within5.reached);
    EXPECT_DOUBLE_EQ(b.rows[1].within10.q1, a.rows[0].within10.q1);
    EXPECT_DOUBLE_EQ(b.rows[1].stopped.median, 15);
    EXPECT_TRUE(std::isinf(b.rows[1].stopped.q3));
    EXPECT_EQ(b.rows[1].stopped.reached, 3u);
    EXPECT_EQ(b.rows[0].stopped.reached, 0u);
    EXPECT_EQ(b.rows[0].versus, "random");
    EXPECT_DOUBLE_EQ(b.rows[0].versus_ratio, 0.5);
    EXPECT_DOUBLE_EQ(b.rows[0].versus_lo, 0.25);
    EXPECT_TRUE(std::isinf(b.rows[0].versus_hi));
    EXPECT_TRUE(b.rows[1].versus.empty());
    ASSERT_EQ(back.mean_scores.size(), 2u);
    EXPECT_DOUBLE_EQ(back.mean_scores[1].second, table.mean_scores[0].second);
}

TEST(TuneEvalStore, TwoSpacesWithOneNameAreRefusedWhole) {
    test::TempDir d;
    Store store = Store::open(d.file("t.db"), Store::Mode::create);
    TuneEvalTable table = small_table();
    table.spaces.push_back(table.spaces[0]);
    EXPECT_THROW(save_tune_eval(store, table, {"", "host", "", "memwall tune-eval x x", "0.1"}), InputError);
    EXPECT_FALSE(load_tune_eval(store, 1));  // rolled back
}

}  // namespace
}  // namespace memwall
