#include "core/space.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

using namespace memwall;

namespace {
Space toy() {
    Axis n = int_axis("n", {8, 16}, "size");
    Axis t = tunable(int_axis("tile", {4, 8, 16}, "tile"));
    Constraint fits{"tile <= n", [](const Params& p) { return p.integer("tile") <= p.integer("n"); }};
    return Space({n, t}, {fits});
}
}  // namespace

TEST(Space, CartesianProductWithConstraints) {
    Space s = toy();
    EXPECT_EQ(s.size_unconstrained(), 6u);
    auto pts = s.points();
    ASSERT_EQ(pts.size(), 5u);  // (8,16) is pruned
    EXPECT_EQ(pts[0].label(), "n=8,tile=4");
    EXPECT_EQ(pts[2].label(), "n=16,tile=4");
    for (const auto& p : pts) EXPECT_LE(p.integer("tile"), p.integer("n"));
    Params bad;
    bad.set("n", std::int64_t{8});
    bad.set("tile", std::int64_t{16});
    ASSERT_NE(s.violated(bad), nullptr);
    EXPECT_EQ(s.violated(bad)->description, "tile <= n");
}

TEST(Space, OverridesReplaceDefaults) {
    Space s = toy();
    s.apply_override("n=pow2:4:32");
    s.apply_override("tile=4");
    EXPECT_EQ(s.points().size(), 4u);
    EXPECT_THROW(s.apply_override("m=3"), UsageError);
    EXPECT_THROW(s.apply_override("n=abc"), UsageError);
}

TEST(Space, ZippedAxesAdvanceTogether) {
    Space s({int_axis("a", {1, 2, 3}, ""), int_axis("b", {10, 20, 30}, ""), int_axis("c", {0, 1}, "")});
    s.zip({"a", "b"});
    auto pts = s.points();
    ASSERT_EQ(pts.size(), 6u);
    for (const auto& p : pts) EXPECT_EQ(p.integer("b"), 10 * p.integer("a"));
    s.set_values("b", {Value{std::int64_t{5}}});
    try {
        s.points();
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("different numbers of values"), std::string::npos);
    }
    EXPECT_THROW(s.zip({"a", "c"}), UsageError);  // a is already zipped
    EXPECT_THROW(s.zip({"c"}), UsageError);
    EXPECT_THROW(s.zip({"c", "nope"}), UsageError);
}

TEST(Space, ZipNamesAreTheCommaSeparatedNamesTyped) {
    EXPECT_EQ(zip_names("a,b"), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(zip_names(",seq_q,,seq_k,"), (std::vector<std::string>{"seq_q", "seq_k"}));
    EXPECT_EQ(zip_names(" a"), (std::vector<std::string>{" a"}));  // a name as typed: Space::zip refuses it
    EXPECT_TRUE(zip_names("").empty());
    EXPECT_TRUE(zip_names(",,").empty());
}

TEST(Space, ProjectsByRole) {
    Space s = toy();
    Params p = s.points().front();
    EXPECT_EQ(s.project(p, AxisRole::problem).label(), "n=8");
    EXPECT_EQ(s.project(p, AxisRole::tunable).label(), "tile=4");
}

TEST(Space, EmptyWhenConstraintsRemoveAll) {
    Space s = toy();
    s.apply_override("n=2");
    EXPECT_TRUE(s.points().empty());
}

TEST(Space, RefusesToExpandMorePointsThanMemoryHolds) {
    Space s({int_axis("a", {1}, ""), int_axis("b", {1}, ""), int_axis("c", {1}, ""), int_axis("d", {1}, "")});
    for (const char* o : {"a=1:65536:1", "b=1:65536:1", "c=1:65536:1", "d=1:65536:1"}) s.apply_override(o);
    // 2^64 points: the count saturates rather than wrapping to 0.
    EXPECT_EQ(s.size_unconstrained(), std::numeric_limits<std::size_t>::max());
    try {
        s.points();
        ADD_FAILURE() << "expanded";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "the axes give more than 2^64 points, more than 1000000: narrow the axes");
    }
    s.apply_override("a=1");
    s.apply_override("b=1");
    s.apply_override("c=1:2:1");
    EXPECT_EQ(s.points().size(), 2u * 65536u);
}

namespace {
// A shape axis "layer" whose presets set n: "small" and "large" name shapes, "custom" sweeps n.
Space with_presets() {
    Space s({enum_axis("layer", {"custom", "small", "large"}, {"small", "large"}, "named shape"),
             int_axis("n", {8}, "size")});
    Params small, large;
    small.set("n", std::int64_t{4});
    large.set("n", std::int64_t{64});
    s.add_presets({{"layer", "small", small}, {"layer", "large", large}});
    return s;
}
}  // namespace

TEST(Space, PresetsSetTheirAxesAndKeepTheirName) {
    Space s = with_presets();
    auto pts = s.points();
    ASSERT_EQ(pts.size(), 2u);
    EXPECT_EQ(pts[0].label(), "layer=small,n=4");
    EXPECT_EQ(pts[1].label(), "layer=large,n=64");
    s.apply_override("layer=custom,small");
    s.apply_override("n=8,16");
    pts = s.points();  // custom sweeps n; small's two points collapse into one
    ASSERT_EQ(pts.size(), 3u);
    EXPECT_EQ(pts[0].label(), "layer=custom,n=8");
    EXPECT_EQ(pts[1].label(), "layer=custom,n=16");
    EXPECT_EQ(pts[2].label(), "layer=small,n=4");
}

TEST(Space, AnOverrideEveryPresetIgnoresIsRefused) {
    Space s = with_presets();
    EXPECT_EQ(s.preset_shadowed(), std::vector<std::string>{"n"});
    EXPECT_THROW(s.check_not_shadowed("n"), UsageError);
    EXPECT_NO_THROW(s.check_not_shadowed("layer"));
    s.apply_override("layer=custom,large");
    EXPECT_TRUE(s.preset_shadowed().empty());
    EXPECT_NO_THROW(s.check_not_shadowed("n"));
}

TEST(Space, APresetOfAnUnknownAxisOrValueIsACatalogueMistake) {
    Space s = with_presets();
    Params bad;
    bad.set("m", std::int64_t{1});
    EXPECT_THROW(s.add_presets({{"layer", "small", bad}}), UsageError);
    EXPECT_THROW(s.add_presets({{"layer", "huge", Params{}}}), UsageError);
}

TEST(Space, TheValidatorRejectsAMalformedPoint) {
    Space s = with_presets();
    s.set_validator([](const Params& p) {
        if (p.integer("n") > 32) throw UsageError("n is too large");
    });
    EXPECT_THROW(s.points(), UsageError);
    s.apply_override("layer=small");
    EXPECT_EQ(s.points().size(), 1u);
}
