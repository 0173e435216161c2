#include "metrics/counter.hpp"

#include <gtest/gtest.h>

namespace memwall {
namespace {

TEST(CounterNames, SourceNamesRoundTrip) {
    for (auto s : {CounterSource::cupti, CounterSource::perf, CounterSource::emu, CounterSource::model})
        EXPECT_EQ(counter_source_from(to_string(s)), s);
    EXPECT_EQ(to_string(CounterSource::cupti), "cupti");
    EXPECT_EQ(to_string(CounterSource::model), "model");
    EXPECT_FALSE(counter_source_from("Model"));
    EXPECT_FALSE(counter_source_from(""));
}

TEST(CounterNames, BytesAtLevel) {
    EXPECT_EQ(counters::bytes_at("dram"), "bytes.dram");
    EXPECT_EQ(counters::bytes_at("l1"), "bytes.l1");
}

TEST(CounterNames, FindReturnsFirstWithName) {
    std::vector<Counter> cs{{"flops", 1, "FLOP", CounterSource::model},
                            {"bytes.dram", 2, "B", CounterSource::model},
                            {"bytes.dram", 3, "B", CounterSource::emu}};
    const Counter* c = find_counter(cs, "bytes.dram");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->value, 2);
    EXPECT_EQ(find_counter(cs, "bytes.l2"), nullptr);
    EXPECT_EQ(find_counter({}, "flops"), nullptr);
}

}  // namespace
}  // namespace memwall
