#include "core/axis.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

using namespace memwall;

namespace {
std::vector<std::int64_t> ints(const std::vector<Value>& vs) {
    std::vector<std::int64_t> out;
    for (const auto& v : vs) out.push_back(std::get<std::int64_t>(v));
    return out;
}
}  // namespace

TEST(Axis, ParsesLists) {
    Axis a = int_axis("n", {1}, "");
    EXPECT_EQ(ints(parse_axis_values(a, "3,1, 7")), (std::vector<std::int64_t>{3, 1, 7}));
    EXPECT_EQ(ints(parse_axis_values(a, "-4")), (std::vector<std::int64_t>{-4}));
}

TEST(Axis, ParsesRangesAndPowersOfTwo) {
    Axis a = int_axis("n", {1}, "");
    EXPECT_EQ(ints(parse_axis_values(a, "2:10:4")), (std::vector<std::int64_t>{2, 6, 10}));
    EXPECT_EQ(ints(parse_axis_values(a, "5:5:1")), (std::vector<std::int64_t>{5}));
    EXPECT_EQ(ints(parse_axis_values(a, "pow2:16:128")), (std::vector<std::int64_t>{16, 32, 64, 128}));
    Axis r = real_axis("p", {0.5}, "");
    auto v = parse_axis_values(r, "0:0.3:0.1");
    ASSERT_EQ(v.size(), 4u);
    EXPECT_NEAR(std::get<double>(v[3]), 0.3, 1e-12);
}

TEST(Axis, RejectsMalformedValues) {
    Axis a = int_axis("n", {1}, "");
    for (const char* bad : {"", "x", "1,,2", "1.5", "3:1:1", "1:5:0", "pow2:3:8", "pow2:8:4", "1:2", "a:b:c:d", "1,1",
                            "12abc", "99999999999999999999"}) {
        EXPECT_THROW(parse_axis_values(a, bad), UsageError) << bad;
    }
    Axis r = real_axis("p", {0.5}, "");
    EXPECT_THROW(parse_axis_values(r, "pow2:1:4"), UsageError);
    EXPECT_THROW(parse_axis_values(r, "nan"), UsageError);
}

TEST(Axis, ValidatesBoundsChoicesAndBooleans) {
    const Axis a = bounded(int_axis("Br", {16}, ""), 1, 256);
    EXPECT_THROW(parse_axis_values(a, "0"), UsageError);
    EXPECT_THROW(parse_axis_values(a, "512"), UsageError);
    EXPECT_EQ(parse_axis_values(a, "pow2:1:256").size(), 9u);

    Axis d = int_axis("head_dim", {64}, "");
    d.choices = {"64", "128"};
    EXPECT_EQ(ints(parse_axis_values(d, "128,64")), (std::vector<std::int64_t>{128, 64}));
    try {
        parse_axis_values(d, "96");
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "axis 'head_dim': 96 is not one of 64, 128");
    }

    Axis b = bool_axis("causal", {false}, "");
    EXPECT_EQ(ints(parse_axis_values(b, "true,0")), (std::vector<std::int64_t>{1, 0}));
    EXPECT_THROW(parse_axis_values(b, "2"), UsageError);

    Axis e = enum_axis("dtype", {"fp32", "bf16"}, {"fp32"}, "");
    EXPECT_EQ(std::get<std::string>(parse_axis_values(e, "bf16")[0]), "bf16");
    EXPECT_THROW(parse_axis_values(e, "fp8"), UsageError);
}

TEST(Axis, SplitsOverrides) {
    EXPECT_EQ(split_override("seq_q=1,2"), (std::pair<std::string, std::string>{"seq_q", "1,2"}));
    EXPECT_THROW(split_override("seq_q"), UsageError);
    EXPECT_THROW(split_override("=3"), UsageError);
}

namespace {
std::string usage_message(const Axis& a, const char* text) {
    try {
        parse_axis_values(a, text);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "accepted";
}
}  // namespace

TEST(Axis, AnIntegerBeyondInt64SaysOutOfRangeNamingTheRange) {
    const Axis bounded_axis = bounded(int_axis("seq_q", {1}, ""), 1, 16777216);
    EXPECT_EQ(usage_message(bounded_axis, "99999999999999999999"),
              "axis 'seq_q': '99999999999999999999' is out of range (1..16777216)");
    EXPECT_EQ(usage_message(int_axis("n", {1}, ""), "-99999999999999999999"),
              "axis 'n': '-99999999999999999999' is out of range (-9223372036854775808..9223372036854775807)");
    EXPECT_EQ(usage_message(int_axis("n", {1}, ""), "9x"), "axis 'n': '9x' is not an integer");
    EXPECT_EQ(usage_message(real_axis("p", {1}, ""), "1e400"),
              "axis 'p': '1e400' is not a finite number a double holds");
}

TEST(Axis, ALongRangeIsCheckedForRepeatsQuickly) {
    // The check for values given twice was pairwise: 100000 values took minutes.
    Axis a = int_axis("n", {1}, "");
    EXPECT_EQ(parse_axis_values(a, "1:99999:1").size(), 99999u);
    EXPECT_EQ(usage_message(a, "1,2,3,2"), "axis 'n': value 2 given twice");
}
