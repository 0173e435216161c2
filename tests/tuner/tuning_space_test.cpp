#include "tuner/tuning_space.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/errors.hpp"

namespace memwall {
namespace {

// a in {1, 2, 4}, b in {x, y}; (4, y) is missing, as a constraint would leave it.
TuningSpace small_space() {
    std::vector<Parameter> params{{"a", {Value{std::int64_t{1}}, Value{std::int64_t{2}}, Value{std::int64_t{4}}}},
                                  {"b", {Value{std::string("x")}, Value{std::string("y")}}}};
    return TuningSpace(params, {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}});
}

TEST(TuningSpace, FindsConfigurationsAndLabelsThem) {
    const TuningSpace s = small_space();
    EXPECT_EQ(s.size(), 5u);
    EXPECT_EQ(s.find({1, 1}), std::optional<std::size_t>(4));
    EXPECT_FALSE(s.find({2, 1}));
    EXPECT_EQ(s.label(4), "a=2,b=y");
    EXPECT_EQ(s.params(2).integer("a"), 4);
    EXPECT_EQ(s.params(3).str("b"), "y");
}

TEST(TuningSpace, LinesHoldTheNeighboursAlongOneParameterInValueOrder) {
    const TuningSpace s = small_space();
    // along a from (a=2, b=x): a = 1, 2, 4 with b = x
    const auto along_a = s.line(1, 0);
    EXPECT_EQ(std::vector<std::uint32_t>(along_a.begin(), along_a.end()), (std::vector<std::uint32_t>{0, 1, 2}));
    // along a from (a=1, b=y): only a = 1, 2 exist with b = y
    const auto along_a_y = s.line(3, 0);
    EXPECT_EQ(std::vector<std::uint32_t>(along_a_y.begin(), along_a_y.end()), (std::vector<std::uint32_t>{3, 4}));
    // along b from (a=4, b=x): (4, y) is not in the space
    EXPECT_EQ(s.line(2, 1).size(), 1u);
    EXPECT_EQ(TuningSpace::hamming(s.config(0), s.config(4)), 2);
}

TEST(TuningSpace, CountsTheParametersWithMoreThanOneValueAsVarying) {
    EXPECT_EQ(small_space().varying(), 2u);
    std::vector<Parameter> params{{"a", {Value{std::int64_t{1}}, Value{std::int64_t{2}}}},
                                  {"fixed", {Value{std::int64_t{15}}}}};
    EXPECT_EQ(TuningSpace(params, {{0, 0}, {1, 0}}).varying(), 1u);
}

TEST(TuningSpace, RejectsBadConfigurations) {
    std::vector<Parameter> params{{"a", {Value{std::int64_t{1}}, Value{std::int64_t{2}}}}};
    EXPECT_THROW(TuningSpace(params, {{0}, {0}}), std::invalid_argument);
    EXPECT_THROW(TuningSpace(params, {{2}}), std::invalid_argument);
    EXPECT_THROW(TuningSpace(params, {{0, 1}}), std::invalid_argument);
}

TEST(TuningSpace, FromAHarnessSpaceKeepsTunableAxesAndConstraints) {
    Space space({int_axis("n", {1024}, "problem size"), tunable(int_axis("tile", {8, 16, 32}, "tile")),
                 tunable(int_axis("split", {1, 2}, "splits"))},
                {{"tile * split <= 32", [](const Params& p) { return p.integer("tile") * p.integer("split") <= 32; }}});
    const TuningSpace t = tuning_space_from(space);
    ASSERT_EQ(t.parameters().size(), 2u);
    EXPECT_EQ(t.parameters()[0].name, "tile");
    EXPECT_EQ(t.size(), 5u);  // (32, 2) is constrained away
    EXPECT_FALSE(t.find({2, 1}));
    EXPECT_TRUE(t.find({2, 0}));
}

TEST(TuningSpace, FromAHarnessSpaceNeedsOneProblemPointAndATunableAxis) {
    Space two_problems({int_axis("n", {1024, 2048}, "problem size"), tunable(int_axis("tile", {8, 16}, "tile"))});
    EXPECT_THROW(tuning_space_from(two_problems), UsageError);
    Space nothing_tunable({int_axis("n", {1024}, "problem size")});
    EXPECT_THROW(tuning_space_from(nothing_tunable), UsageError);
}

}  // namespace
}  // namespace memwall
