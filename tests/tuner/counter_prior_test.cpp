#include "tuner/strategies/counter_prior.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace memwall {
namespace {

const std::string kData = std::string(MEMWALL_TEST_DATA) + "/tuning/";

bool independent(const std::string& name, CounterSource source = CounterSource::cupti) {
    return is_device_independent(Counter{name, 1, "", source});
}

TEST(CounterPrior, KeepsWhatTheCodeDoesAndDropsWhatTheDeviceDid) {
    EXPECT_TRUE(independent("smsp__inst_executed.sum"));
    EXPECT_TRUE(independent("smsp__sass_thread_inst_executed_op_fp32_pred_on.sum"));
    EXPECT_TRUE(independent("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
    EXPECT_TRUE(independent("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"));
    EXPECT_TRUE(independent("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
    // the device's caches and DRAM, and anything relative to elapsed time
    EXPECT_FALSE(independent("dram__bytes_read.sum"));
    EXPECT_FALSE(independent("lts__t_bytes_op_read.sum"));
    EXPECT_FALSE(independent("bytes.l2"));
    EXPECT_FALSE(independent("smsp__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"));
    EXPECT_FALSE(independent("smsp__thread_inst_executed_per_inst_executed.ratio"));
    EXPECT_FALSE(independent("sm__cycles_elapsed.sum"));
    // cuda-emu counts the access stream and models give work, with no device involved
    EXPECT_TRUE(independent("dram__bytes_read.sum", CounterSource::emu));
    EXPECT_TRUE(independent("flops", CounterSource::model));
    EXPECT_TRUE(independent("instructions", CounterSource::perf));
    EXPECT_FALSE(independent("cycles", CounterSource::perf));
    // what a configuration allocates is no work, whoever tells it
    EXPECT_FALSE(independent("workspace.bytes", CounterSource::model));
    EXPECT_FALSE(independent("workspace.bytes", CounterSource::emu));
}

TEST(CounterPrior, CoversEveryConfigurationOfARecording) {
    const RecordedSpace rs = load_recorded_space(kData + "pnpoly_RTX_2080Ti_slice.json");
    const CounterPrior prior = counter_prior_from(rs);
    const auto column = [&](const std::string& name) {
        const auto it = std::find(prior.names.begin(), prior.names.end(), name);
        EXPECT_NE(it, prior.names.end()) << name;
        return static_cast<std::size_t>(it - prior.names.begin());
    };
    EXPECT_EQ(std::count(prior.names.begin(), prior.names.end(), "dram__bytes_read.sum"), 0);
    EXPECT_EQ(std::count(prior.names.begin(), prior.names.end(), "lts__t_bytes_op_read.sum"), 0);
    const std::size_t inst = column("smsp__inst_executed.sum");
    column("smsp__sass_thread_inst_executed_op_fp32_pred_on.sum");

    ASSERT_EQ(prior.values.size(), rs.space.size());
    std::size_t estimated = 0;
    for (std::size_t id = 0; id < rs.space.size(); ++id) {
        ASSERT_EQ(prior.values[id].size(), prior.names.size());
        const double v = prior.values[id][inst];
        if (const Counter* c = find_counter(rs.results[id].counters, "smsp__inst_executed.sum")) {
            EXPECT_EQ(v, c->value);
        } else {
            // A failed configuration: its count is estimated from the others, within their range.
            ++estimated;
            double lo = 1e300, hi = 0;
            for (std::size_t o = 0; o < rs.space.size(); ++o)
                if (const Counter* k = find_counter(rs.results[o].counters, "smsp__inst_executed.sum")) {
                    lo = std::min(lo, k->value);
                    hi = std::max(hi, k->value);
                }
            EXPECT_GE(v, 0.5 * lo);
            EXPECT_LE(v, 2 * hi);
        }
    }
    EXPECT_EQ(estimated, rs.space.size() - rs.ok_count());
}

TEST(CounterPrior, IsEmptyForARecordingWithoutCounters) {
    const RecordedSpace rs = load_recorded_space(kData + "convolution_milo_A100_slice.json");
    EXPECT_TRUE(counter_prior_from(rs).empty());
}

}  // namespace
}  // namespace memwall
