// `memwall history` end to end: the trend of each case with its tags, and the change point.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "process.hpp"
#include "synthetic_runs.hpp"

using namespace memwall::test;
using memwall::Store;

TEST(CliHistory, ShowsTheTrendAndFlagsTheStep) {
    TempDir d;
    {
        Store s = Store::open((d.path / "t.db").string(), Store::Mode::create);
        for (int i = 0; i < 10; ++i)
            add_synthetic_run(s, {.scale = i < 5 ? 1.0 : 1.3,
                                  .seed = static_cast<std::uint64_t>(i + 1),
                                  .tags = {{"branch", "main"}, {"commit", "c0ffee" + std::to_string(i)}},
                                  .noise = 0.005});
        add_synthetic_run(s, {.seed = 99, .tags = {{"branch", "feature"}}});
    }
    const Result r = run_memwall({"--db", "t.db", "history", "--variant", "flash", "--tag", "branch=main"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("attention/flash/cpu"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("attention/naive/cpu"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("c0ffee9"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("feature"), std::string::npos) << r.out;  // filtered out by the tag
    EXPECT_NE(r.out.find("slower +30"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 case(s), 1 change point(s)"), std::string::npos) << r.out;
    // The step is on run 6, the first at the new level.
    for (const auto& line : lines(r.out)) {
        if (line.find("slower +30") != std::string::npos) {
            EXPECT_EQ(line.substr(0, 3), "  6") << line;
        }
    }

    const Result none = run_memwall({"--db", "t.db", "history", "--family", "conv"}, d.path);
    EXPECT_EQ(none.status, 0);
    EXPECT_NE(none.out.find("no timed case"), std::string::npos) << none.out;

    EXPECT_EQ(run_memwall({"--db", "t.db", "history", "--tag", "nonsense"}, d.path).status, 2);
    EXPECT_EQ(run_memwall({"--db", "missing.db", "history"}, d.path).status, 2);
}

TEST(CliHistory, JsonFormat) {
    TempDir d;
    {
        Store s = Store::open((d.path / "t.db").string(), Store::Mode::create);
        for (int i = 0; i < 6; ++i)
            add_synthetic_run(s, {.scale = i < 3 ? 1.0 : 1.3,
                                  .seed = static_cast<std::uint64_t>(i + 1),
                                  .tags = {{"branch", "main"}},
                                  .noise = 0.005});
    }
    const Result r = run_memwall({"--db", "t.db", "history", "--variant", "flash", "--format", "json"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);  // stdout holds the document only
    EXPECT_EQ(j["format"], "memwall-history/1");
    ASSERT_EQ(j["cases"].size(), 1u);
    EXPECT_EQ(j["cases"][0]["points"].size(), 6u);
    ASSERT_EQ(j["cases"][0]["change_points"].size(), 1u);
    EXPECT_EQ(j["cases"][0]["change_points"][0]["run"], 4);
    EXPECT_EQ(j["cases"][0]["change_points"][0]["direction"], "slower");

    const Result none = run_memwall({"--db", "t.db", "history", "--family", "conv", "--format", "json"}, d.path);
    ASSERT_EQ(none.status, 0) << none.err;
    EXPECT_TRUE(nlohmann::json::parse(none.out)["cases"].empty());

    EXPECT_EQ(run_memwall({"--db", "t.db", "history", "--format", "xml"}, d.path).status, 2);
}
