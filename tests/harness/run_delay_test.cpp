#include "harness/run_delay.hpp"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "harness/sampler.hpp"
#include "tests/support/temp_dir.hpp"

using namespace memwall;
using memwall::test::TempDir;

namespace {

bool pin(pid_t who, int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(who, sizeof set, &set) == 0;
}

// Another process spinning on one CPU until it is killed: what holds the measuring thread's CPU.
// Its own waiting is not this process's, so only the measuring thread's counts.
class Hog {
  public:
    explicit Hog(int cpu) : pid_(fork()) {
        if (pid_ == 0) {
            pin(0, cpu);
            for (;;) {}
        }
    }
    ~Hog() {
        if (pid_ <= 0) return;
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    bool started() const { return pid_ > 0; }

  private:
    pid_t pid_;
};

// Busy work for `seconds` of wall time.
double spin_for(double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    volatile double x = 0;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) x = x + 1;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(RunDelay, ReadsTheSecondFieldOfEveryThreadsSchedstat) {
    TempDir dir;
    for (auto [tid, line] : {std::pair{"10", "123 2000000000 7\n"}, std::pair{"11", "5 500000000 1\n"}}) {
        std::filesystem::create_directories(std::filesystem::path(dir.file(tid)));
        std::ofstream(std::filesystem::path(dir.file(tid)) / "schedstat") << line;
    }
    const auto d = run_delay_seconds(dir.file(""));
    ASSERT_TRUE(d);
    EXPECT_DOUBLE_EQ(*d, 2.5);
}

TEST(RunDelay, NoneWhereTheKernelReportsNone) {
    TempDir dir;
    EXPECT_FALSE(run_delay_seconds(dir.file("")));
    EXPECT_FALSE(run_delay_seconds(dir.file("missing")));
    std::filesystem::create_directories(std::filesystem::path(dir.file("10")));
    std::ofstream(std::filesystem::path(dir.file("10")) / "schedstat") << "garbage\n";
    EXPECT_FALSE(run_delay_seconds(dir.file("")));
}

// A hog pinned to the measuring thread's CPU takes about half of it, however busy the machine
// is otherwise (other load only adds waiting): each sample's threads wait, and the case is
// flagged rather than stored as a plain time.
TEST(RunDelay, AHogOnTheSameCpuMakesTheSamplesBusy) {
    const RunDelaySource source = process_run_delay();
    if (!source) GTEST_SKIP() << "this kernel reports no run-queue delay (/proc/self/task/*/schedstat)";
    const int cpu = sched_getcpu();
    ASSERT_GE(cpu, 0);
    cpu_set_t before;
    ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
    ASSERT_TRUE(pin(0, cpu));
    Sampling r;
    {
        Hog hog(cpu);
        ASSERT_TRUE(hog.started());
        SamplerSettings set;
        set.warmup_runs = 0;
        set.min_samples = 5;
        set.min_time = 0;
        set.timeout = 0.3;
        r = take_samples([] { return spin_for(0.03); }, set, {}, source);
    }
    sched_setaffinity(0, sizeof before, &before);
    EXPECT_EQ(r.stop_reason, "host busy") << r.discarded << " discarded of " << r.seconds.size();
    EXPECT_GE(r.discarded, 5);
}
