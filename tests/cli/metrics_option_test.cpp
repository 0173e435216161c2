// --metrics of run and tune: the default list, none, and names checked for form.
#include "cli/metrics_option.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "profiler/cupti_host.hpp"

namespace memwall::cli {
namespace {

TEST(MetricsOption, DefaultIsCuptisDefaultListAndNoneIsEmpty) {
    EXPECT_EQ(metrics_from("default"), cupti::default_metrics());
    EXPECT_EQ(metrics_from(""), cupti::default_metrics());
    EXPECT_TRUE(metrics_from("none").empty());
}

TEST(MetricsOption, NamesKeepTheirOrderOnce) {
    const std::vector<std::string> want = {"lts__t_bytes.sum", "dram__bytes_read.sum"};
    EXPECT_EQ(metrics_from("lts__t_bytes.sum,dram__bytes_read.sum,lts__t_bytes.sum"), want);
}

TEST(MetricsOption, MalformedNamesAreUsageErrors) {
    EXPECT_THROW(metrics_from("dram__bytes_read.sum,,lts__t_bytes.sum"), UsageError);
    EXPECT_THROW(metrics_from("dram__bytes_read.sum,"), UsageError);
    EXPECT_THROW(metrics_from("DRAM bytes"), UsageError);
    EXPECT_THROW(metrics_from("dram__bytes_read.sum;rm"), UsageError);
}

}  // namespace
}  // namespace memwall::cli
