#include "results/history.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

class HistoryTest : public ::testing::Test {
  protected:
    test::TempDir dir;
    Store store = Store::open(dir.file("h.db"), Store::Mode::create);

    // One run with a flash and a naive case; flash takes `flash_ms`.
    void add_run(double flash_ms, std::map<std::string, std::string> tags, std::string revision = "") {
        RunInfo r;
        r.tags = std::move(tags);
        r.git_revision = std::move(revision);
        const std::int64_t id = store.begin_run(r);
        for (auto [variant, ms] : {std::pair<std::string, double>{"flash", flash_ms}, {"naive", 5.0}}) {
            CaseRecord c;
            c.run_id = id;
            c.key = {"attention", variant, "cpu", R"({"seq_q":1024})", variant == "flash" ? R"({"Br":32})" : "{}"};
            for (int i = -4; i <= 4; ++i) c.samples.push_back({ms * 1e-3 * (1 + 0.002 * i)});
            store.save_case(c);
        }
        store.finish_run(id, RunStatus::complete);
    }
};

TEST_F(HistoryTest, ShowsTheTrendWithTagsAndFlagsTheStep) {
    for (int i = 0; i < 6; ++i) add_run(1.0, {{"branch", "main"}, {"commit", "c" + std::to_string(i)}});
    for (int i = 6; i < 12; ++i) add_run(1.25, {{"branch", "main"}}, "rev" + std::to_string(i));

    HistoryFilter f;
    f.variant = "flash";
    const auto h = load_history(store, f);
    ASSERT_EQ(h.size(), 1u);
    ASSERT_EQ(h[0].points.size(), 12u);
    EXPECT_EQ(h[0].points[0].branch, "main");
    EXPECT_EQ(h[0].points[0].commit, "c0");
    EXPECT_EQ(h[0].points[7].commit, "rev7");  // no commit tag: the run's revision
    EXPECT_NEAR(h[0].points[0].median, 1e-3, 1e-12);
    EXPECT_EQ(h[0].points[0].n, 9u);
    EXPECT_LT(h[0].points[0].ci.lo, h[0].points[0].ci.hi);
    ASSERT_EQ(h[0].changes.size(), 1u);
    EXPECT_EQ(h[0].changes[0].index, 6u);
    EXPECT_NEAR(h[0].changes[0].after / h[0].changes[0].before, 1.25, 1e-6);

    f.variant = "naive";
    const auto n = load_history(store, f);
    ASSERT_EQ(n.size(), 1u);
    EXPECT_TRUE(n[0].changes.empty());
}

TEST_F(HistoryTest, FiltersByLabelTagsAndLastRuns) {
    add_run(1.0, {{"branch", "main"}});
    add_run(1.0, {{"branch", "feature"}});
    add_run(1.0, {{"branch", "main"}});

    HistoryFilter all;
    EXPECT_EQ(load_history(store, all).size(), 2u);

    HistoryFilter config;
    config.config = "Br=32";
    const auto c = load_history(store, config);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].key.variant, "flash");

    HistoryFilter main;
    main.tags = {{"branch", "main"}};
    main.variant = "flash";
    const auto m = load_history(store, main);
    ASSERT_EQ(m.size(), 1u);
    ASSERT_EQ(m[0].points.size(), 2u);
    EXPECT_EQ(m[0].points[1].run_id, 3);

    main.last = 1;
    EXPECT_EQ(load_history(store, main)[0].points.size(), 1u);

    HistoryFilter nothing;
    nothing.problem = "seq_q=4096";
    EXPECT_TRUE(load_history(store, nothing).empty());
}

TEST_F(HistoryTest, JsonHoldsThePointsAndTheChangePoint) {
    for (int i = 0; i < 4; ++i) add_run(1.0, {{"branch", "main"}, {"commit", "c" + std::to_string(i)}});
    for (int i = 4; i < 8; ++i) add_run(0.8, {{"branch", "main"}, {"commit", "c" + std::to_string(i)}});
    HistoryFilter f;
    f.variant = "flash";
    f.tags = {{"branch", "main"}};
    std::ostringstream os;
    write_history_json(load_history(store, f), "h.db", f, {}, os);
    const auto j = nlohmann::json::parse(os.str());

    EXPECT_EQ(j["format"], "memwall-history/1");
    EXPECT_EQ(j["database"], "h.db");
    EXPECT_EQ(j["filter"]["variant"], "flash");
    EXPECT_EQ(j["filter"]["tags"]["branch"], "main");
    EXPECT_DOUBLE_EQ(j["rule"]["threshold"].get<double>(), 0.05);
    ASSERT_EQ(j["cases"].size(), 1u);
    const auto& c = j["cases"][0];
    EXPECT_EQ(c["variant"], "flash");
    EXPECT_EQ(c["config"]["Br"], 32);
    EXPECT_EQ(c["problem"]["seq_q"], 1024);
    ASSERT_EQ(c["points"].size(), 8u);
    EXPECT_EQ(c["points"][0]["run"], 1);
    EXPECT_EQ(c["points"][3]["commit"], "c3");
    EXPECT_NEAR(c["points"][0]["median"].get<double>(), 1e-3, 1e-12);
    EXPECT_LT(c["points"][0]["ci"][0].get<double>(), c["points"][0]["ci"][1].get<double>());
    EXPECT_EQ(c["points"][0]["n"], 9);
    ASSERT_EQ(c["change_points"].size(), 1u);
    const auto& cp = c["change_points"][0];
    EXPECT_EQ(cp["run"], 5);
    EXPECT_EQ(cp["index"], 4);
    EXPECT_EQ(cp["direction"], "faster");
    EXPECT_NEAR(cp["ratio"].get<double>(), 0.8, 1e-6);
    EXPECT_GT(cp["score"].get<double>(), 4);

    std::ostringstream empty;
    write_history_json({}, "h.db", HistoryFilter{}, {}, empty);
    EXPECT_TRUE(nlohmann::json::parse(empty.str())["cases"].empty());
}

}  // namespace
}  // namespace memwall
