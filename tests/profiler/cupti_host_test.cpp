// CUPTI's profiler host API, which works with no GPU and no driver: the chips, a chip's metrics,
// and the range profiler's configuration of a metric list (image, replay passes). Skips where
// CUPTI cannot be loaded (memwall built without the CUDA toolkit); CI has the toolkit.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "profiler/cupti_host.hpp"

namespace memwall {
namespace {

bool cupti_here() {
    try {
        (void)cupti::supported_chips();
        return true;
    } catch (const cupti::Unavailable&) {
        return false;
    }
}

#define REQUIRE_CUPTI() \
    if (!cupti_here()) GTEST_SKIP() << "CUPTI cannot be loaded here"

TEST(CuptiHost, KnowsTheChipsOfEveryRecentGeneration) {
    REQUIRE_CUPTI();
    const std::vector<std::string> chips = cupti::supported_chips();
    for (const char* c : {"GA100", "GH100", "AD102"})
        EXPECT_NE(std::find(chips.begin(), chips.end(), c), chips.end()) << c;
    try {
        cupti::ChipMetrics unknown("XX100");
        ADD_FAILURE() << "an unknown chip accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("GH100"), std::string::npos) << "the known chips are named: " << e.what();
    }
}

TEST(CuptiHost, BaseMetricsAndTheirProperties) {
    REQUIRE_CUPTI();
    const cupti::ChipMetrics gh100("GH100");
    const auto base = gh100.base_metrics();
    EXPECT_GT(base.size(), 1000u);
    EXPECT_NE(std::find(base.begin(), base.end(), std::pair<std::string, std::string>{"dram__bytes_read", "counter"}),
              base.end());
    const auto p = gh100.properties("dram__bytes_read.sum");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->dim_unit, "byte");
    EXPECT_EQ(p->type, "counter");
    EXPECT_FALSE(gh100.properties("dram__bytez_read.sum"));
}

// The design note's figures: two of memwall's metrics fit one replay pass; the default six
// (DRAM read and write, L2, L1, FFMA, duration) take two. A config image is what the target
// side will take: never empty.
TEST(CuptiHost, ConfigImagesAndReplayPasses) {
    REQUIRE_CUPTI();
    const cupti::ChipMetrics gh100("GH100");
    const cupti::MetricConfig two = gh100.configure({"dram__bytes_read.sum", "lts__t_bytes.sum"});
    EXPECT_EQ(two.passes, 1u);
    EXPECT_GT(two.image.size(), 0u);
    const cupti::MetricConfig all = gh100.configure(cupti::default_metrics());
    EXPECT_EQ(all.passes, 2u);
    EXPECT_GT(all.image.size(), two.image.size());
    // Each configuration is built on its own host object: the first list does not leak into
    // the next.
    EXPECT_EQ(gh100.configure({"dram__bytes_read.sum", "lts__t_bytes.sum"}).image, two.image);
    // Every chip memwall's GPUs are: A100 and H100 take the defaults.
    EXPECT_GT(cupti::ChipMetrics("GA100").configure(cupti::default_metrics()).passes, 0u);
}

TEST(CuptiHost, AMisspeltMetricIsNamed) {
    REQUIRE_CUPTI();
    const cupti::ChipMetrics gh100("GH100");
    try {
        gh100.configure({"dram__bytes_read.sum", "dram__bytez_read.sum", "lts__t_byte.sum"});
        ADD_FAILURE() << "misspelt metrics accepted";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'dram__bytez_read.sum'"), std::string::npos) << what;
        EXPECT_NE(what.find("'lts__t_byte.sum'"), std::string::npos) << what;
        EXPECT_EQ(what.find("'dram__bytes_read.sum'"), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace memwall
