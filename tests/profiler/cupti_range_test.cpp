// The range profiler's replay loop and counters, without a GPU: a scripted target stands in for
// CUPTI's (which needs a device's context).
#include "profiler/cupti_range.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "profiler/cupti_host.hpp"

namespace memwall::cupti {
namespace {

// Says every pass is submitted after `passes` passes, and logs the calls in order.
class ScriptedTarget final : public ReplayTarget {
  public:
    explicit ScriptedTarget(std::size_t passes, std::vector<std::string>& log) : passes_(passes), log_(log) {}
    void start_pass() override { log_.push_back("start"); }
    void push_range() override { log_.push_back("push"); }
    void pop_range() override { log_.push_back("pop"); }
    bool stop_pass() override {
        log_.push_back("stop");
        return ++stopped_ >= passes_;
    }

  private:
    std::size_t passes_, stopped_ = 0;
    std::vector<std::string>& log_;
};

TEST(CuptiReplay, EachPassPreparesThenRunsTheWorkInsideOneRange) {
    std::vector<std::string> log;
    ScriptedTarget target(2, log);
    const std::size_t passes = replay(
        target, 2, [&] { log.push_back("prepare"); }, [&] { log.push_back("work"); });
    EXPECT_EQ(passes, 2u);
    const std::vector<std::string> pass = {"prepare", "start", "push", "work", "pop", "stop"};
    std::vector<std::string> expected = pass;
    expected.insert(expected.end(), pass.begin(), pass.end());
    EXPECT_EQ(log, expected);
}

TEST(CuptiReplay, StopsAtTheFirstPassThatSubmitsEverything) {
    std::vector<std::string> log;
    ScriptedTarget target(1, log);
    int work = 0;
    EXPECT_EQ(replay(
                  target, 3, [] {}, [&] { ++work; }),
              1u);
    EXPECT_EQ(work, 1);
}

TEST(CuptiReplay, AProfilerWantingMorePassesThanConfiguredIsAnErrorNotAHang) {
    std::vector<std::string> log;
    ScriptedTarget target(5, log);
    int work = 0;
    try {
        replay(
            target, 2, [] {}, [&] { ++work; });
        FAIL() << "replay went past the configured passes";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("more than the 2 replay passes"), std::string::npos) << e.what();
    }
    EXPECT_EQ(work, 2);
}

TEST(CuptiReplay, AFailingCallStopsTheReplayWithItsMessage) {
    struct Failing final : ReplayTarget {
        void start_pass() override { throw std::runtime_error("cuptiRangeProfilerStart failed: CUPTI_ERROR_X (1)"); }
        void push_range() override {}
        void pop_range() override {}
        bool stop_pass() override { return true; }
    } target;
    int work = 0;
    EXPECT_THROW(replay(
                     target, 2, [] {}, [&] { ++work; }),
                 std::runtime_error);
    EXPECT_EQ(work, 0);
}

TEST(CuptiCounters, KeepCuptisNamesWithSourceCuptiAndShortUnits) {
    const auto cs = counters_of({{"dram__bytes_read.sum", 4096}, {"gpu__time_duration.sum", 1500}, {"x.sum", 3}},
                                {"byte", "nsecond", "inst"});
    ASSERT_EQ(cs.size(), 3u);
    EXPECT_EQ(cs[0].name, "dram__bytes_read.sum");
    EXPECT_EQ(cs[0].unit, "B");
    EXPECT_DOUBLE_EQ(cs[0].value, 4096);
    EXPECT_EQ(cs[1].unit, "ns");
    EXPECT_EQ(cs[2].unit, "inst");
    for (const Counter& c : cs) EXPECT_EQ(c.source, CounterSource::cupti);
    EXPECT_THROW(counters_of({{"a.sum", 1}}, {}), std::logic_error);
}

// Where CUPTI loads but no GPU is present, the target side fails with the call named; it never
// pretends to have collected.
TEST(CuptiRangeProfiler, WithoutADeviceFailsNamingTheCall) {
    try {
        (void)supported_chips();
    } catch (const Unavailable& e) {
        GTEST_SKIP() << e.what();
    }
    try {
        RangeProfiler p(nullptr, 0, default_metrics());
        GTEST_SKIP() << "a device is present: collection is tested by the GPU tests";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cupti"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace memwall::cupti
