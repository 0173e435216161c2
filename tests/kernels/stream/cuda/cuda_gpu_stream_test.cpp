// The CUDA stream kernel on a real GPU (the cuda backend). Built always; it skips itself unless
// a CUDA device is present.
#include <gtest/gtest.h>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "kernels/stream/register.hpp"
#include "profiler/cupti_host.hpp"
#include "tests/support/gpu_case.hpp"

namespace memwall {
namespace {

TEST(CudaGpuStream, EveryOpMatchesTheReferenceAndTimesWithEvents) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    Catalogue c;
    register_stream(c);
    for (const char* op : {"copy", "scale", "add", "triad"}) {
        Params p;
        p.set("op", std::string(op));
        p.set("n", std::int64_t{(1 << 22) + 5});
        p.set("threads", std::int64_t{256});
        const auto w = c.family("stream").make_workload(p, 3);
        auto inst = c.variant("stream", "grid_stride", Backend::cuda).prepare(*w, p);
        SCOPED_TRACE(op);
        test::expect_checked_and_timed(*inst);
    }
}

// CUPTI's range profiler over a triad far larger than L2: the DRAM bytes it reads are the two
// inputs' (within a few percent), and it writes most of its output back within the range; the
// Activity API sees its one kernel.
TEST(CudaGpuStream, TheRangeProfilerCountsATriadsDramBytes) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    Catalogue c;
    register_stream(c);
    Params p;
    p.set("op", std::string("triad"));
    p.set("n", std::int64_t{1} << 26);
    p.set("threads", std::int64_t{256});
    const auto w = c.family("stream").make_workload(p, 3);
    auto inst = c.variant("stream", "grid_stride", Backend::cuda).prepare(*w, p);
    inst->poison();
    inst->run();
    ASSERT_TRUE(inst->check().ok);
    const Profile prof = inst->profile(cupti::default_metrics());
    for (const std::string& f : prof.failures) ADD_FAILURE() << f;
    const std::vector<Counter>& counters = prof.counters;
    for (const std::string& m : cupti::default_metrics()) EXPECT_TRUE(find_counter(counters, m)) << m;
    // The Activity API's record of the one kernel the triad launches.
    const Counter* launches = find_counter(counters, "kernels.count");
    const Counter* kernel = find_counter(counters, "kernel.stream_kernel.seconds");
    ASSERT_TRUE(launches && kernel);
    EXPECT_DOUBLE_EQ(launches->value, 1);
    EXPECT_GT(kernel->value, 0.0);
    const double array = 4.0 * static_cast<double>(std::int64_t{1} << 26);
    const Counter* read = find_counter(counters, "dram__bytes_read.sum");
    const Counter* written = find_counter(counters, "dram__bytes_write.sum");
    const Counter* duration = find_counter(counters, "gpu__time_duration.sum");
    ASSERT_TRUE(read && written && duration);
    EXPECT_EQ(read->source, CounterSource::cupti);
    EXPECT_GT(read->value, 0.97 * 2 * array);
    EXPECT_LT(read->value, 1.10 * 2 * array);
    EXPECT_GT(written->value, 0.5 * array);
    EXPECT_LT(written->value, 1.10 * array);
    EXPECT_GT(duration->value, 0.0);
    // A second collection of the same case gives the same bytes (each pass starts from the same state).
    const Profile again = inst->profile(cupti::default_metrics());
    const Counter* read_again = find_counter(again.counters, "dram__bytes_read.sum");
    ASSERT_TRUE(read_again);
    EXPECT_NEAR(read_again->value, read->value, 0.03 * read->value);
}

}  // namespace
}  // namespace memwall
