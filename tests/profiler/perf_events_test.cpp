#include "profiler/perf_events.hpp"

#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <omp.h>
#include <time.h>

#include <stdexcept>
#include <thread>

namespace memwall {
namespace {

// Spins until this thread has used `seconds` of CPU time, however busy the machine is.
void spin_cpu(double seconds) {
    auto now = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
    };
    const double end = now() + seconds;
    volatile double x = 0;
    while (now() < end) x = x + 1;
}

const PerfEventSpec kTaskClock{"task_clock", "ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true};

double value_of(const std::vector<Counter>& cs, const std::string& name) {
    const Counter* c = find_counter(cs, name);
    if (!c) throw std::runtime_error("no counter " + name);
    return c->value;
}

TEST(PerfEvents, ProbeGivesAReasonOrWorks) {
    PerfAvailability a = probe_perf_events();
    if (a.available) {
        EXPECT_TRUE(a.reason.empty());
        return;
    }
    EXPECT_EQ(a.reason.rfind("perf_event_open(cycles): ", 0), 0u) << a.reason;
    EXPECT_EQ(a.reason.find('\n'), std::string::npos);
    std::printf("perf unavailable: %s\n", a.reason.c_str());
}

TEST(PerfEvents, HardwareGroupCountsOrFailsWithTheProbeReason) {
    PerfAvailability a = probe_perf_events();
    if (!a.available) {
        try {
            PerfCounterGroup g;
            FAIL() << "opened without a PMU";
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(e.what(), a.reason);
        }
        return;
    }
    PerfCounterGroup g;
    g.start();
    spin_cpu(0.01);
    g.stop();
    auto cs = g.read();
    EXPECT_GT(value_of(cs, "cycles"), 0);
    EXPECT_GT(value_of(cs, "instructions"), 0);
    for (const auto& c : cs) EXPECT_EQ(c.source, CounterSource::perf) << c.name;
}

TEST(PerfEvents, CountsThreadsAliveAtOpening) {
#pragma omp parallel num_threads(2)
    spin_cpu(0.001);  // the OpenMP pool now exists
    PerfCounterGroup g({kTaskClock});
    g.start();
#pragma omp parallel num_threads(2)
    spin_cpu(0.03);
    g.stop();
    EXPECT_GE(value_of(g.read(), "task_clock"), 2 * 0.03e9 * 0.95);
}

TEST(PerfEvents, CountsThreadsCreatedLater) {
    PerfCounterGroup g({kTaskClock});
    g.start();
    std::thread t([] { spin_cpu(0.03); });
    t.join();
    g.stop();
    EXPECT_GE(value_of(g.read(), "task_clock"), 0.03e9 * 0.95);
}

TEST(PerfEvents, StopFreezesAndStartResets) {
    PerfCounterGroup g({kTaskClock});
    g.start();
    spin_cpu(0.01);
    g.stop();
    const double first = value_of(g.read(), "task_clock");
    spin_cpu(0.01);
    EXPECT_EQ(value_of(g.read(), "task_clock"), first);
    g.start();
    g.stop();
    EXPECT_LT(value_of(g.read(), "task_clock"), first);
}

TEST(PerfEvents, ReadBeforeStartIsAnError) {
    PerfCounterGroup g({kTaskClock});
    EXPECT_THROW(g.read(), std::logic_error);
}

TEST(PerfEvents, OptionalEventsTheMachineLacksAreLeftOut) {
    PerfEventSpec cycles{"cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false};
    PerfCounterGroup g({kTaskClock, cycles});
    const bool pmu = probe_perf_events().available;
    EXPECT_EQ(g.missing().size(), pmu ? 0u : 1u);
    g.start();
    spin_cpu(0.005);
    g.stop();
    auto cs = g.read();
    EXPECT_EQ(cs.size(), pmu ? 2u : 1u);
    EXPECT_EQ(find_counter(cs, "cycles") != nullptr, pmu);
}

}  // namespace
}  // namespace memwall
