#include "core/cpu_quota.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace memwall {
namespace {

namespace fs = std::filesystem;

TEST(CpuQuota, CpuMaxGrantsItsQuotaOverItsPeriodRoundedDown) {
    EXPECT_EQ(cpus_of_cpu_max("400000 100000\n"), 4);
    EXPECT_EQ(cpus_of_cpu_max("150000 100000"), 1);  // two threads would be throttled
    EXPECT_EQ(cpus_of_cpu_max("50000 100000"), 1);   // at least one
    EXPECT_EQ(cpus_of_cpu_max("9000000000000000000 1"), std::numeric_limits<int>::max());
    EXPECT_EQ(cpus_of_cpu_max("max 100000\n"), std::nullopt);
    for (const char* bad : {"", "400000", "4e5 100000", "400000 0", "-1 100000", "400000 100000 7"})
        EXPECT_EQ(cpus_of_cpu_max(bad), std::nullopt) << bad;
    EXPECT_EQ(cpus_of_cfs("200000\n", "100000\n"), 2);
    EXPECT_EQ(cpus_of_cfs("-1\n", "100000\n"), std::nullopt);
    EXPECT_EQ(cpus_of_cfs("soon", "100000"), std::nullopt);
}

// A cgroup file system in a temporary directory.
class FakeCgroups : public ::testing::Test {
  protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("memwall-cgroup-" + std::to_string(::getpid()));
        fs::create_directories(root_);
    }
    void TearDown() override { fs::remove_all(root_); }
    void write(const std::string& rel, const std::string& text) {
        fs::create_directories((root_ / rel).parent_path());
        std::ofstream(root_ / rel) << text;
    }
    std::string root() const { return root_.string(); }
    fs::path root_;
};

TEST_F(FakeCgroups, V2TakesTheTightestQuotaOfTheCgroupAndItsAncestors) {
    write("cpu.max", "max 100000\n");
    write("pod/cpu.max", "300000 100000\n");
    write("pod/job/cpu.max", "800000 100000\n");
    EXPECT_EQ(cgroup_cpu_limit("0::/pod/job\n", root()), 3);
    EXPECT_EQ(cgroup_cpu_limit("0::/\n", root()), std::nullopt);
}

TEST_F(FakeCgroups, V2WithAHostPathTheMountLacksFallsBackToTheMountsRoot) {
    write("cpu.max", "400000 100000\n");
    EXPECT_EQ(cgroup_cpu_limit("0::/not/under/this/mount\n", root()), 4);
}

TEST_F(FakeCgroups, V1ReadsTheCpuControllersQuotaAndIgnoresTheOthers) {
    write("cpu,cpuacct/job/cpu.cfs_quota_us", "200000\n");
    write("cpu,cpuacct/job/cpu.cfs_period_us", "100000\n");
    write("cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    write("cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    write("cpuset/job/cpu.cfs_quota_us", "100000\n");  // not the cpu controller's
    write("cpuset/job/cpu.cfs_period_us", "100000\n");
    EXPECT_EQ(cgroup_cpu_limit("4:cpuset:/job\n3:cpu,cpuacct:/job\n2:memory:/job\n", root()), 2);
    EXPECT_EQ(cgroup_cpu_limit("4:cpuset:/job\n2:memory:/job\n", root()), std::nullopt);
}

TEST_F(FakeCgroups, NoFilesOrNoTextMeansNoLimit) {
    EXPECT_EQ(cgroup_cpu_limit("0::/job\n1:cpu:/job\n", root()), std::nullopt);
    EXPECT_EQ(cgroup_cpu_limit("", root()), std::nullopt);
    EXPECT_EQ(cgroup_cpu_limit("garbage\n", root()), std::nullopt);
}

// OMP_NUM_THREADS=100000 (here its effect, set in a child, which alone may crash): the team is
// capped at 4 threads per usable CPU, the cap is what case workers inherit, and a team starts.
// Uncapped, libgomp's start data for the team overflowed the starting thread's stack (SIGSEGV).
TEST(CpuQuota, AnAbsurdThreadCountIsCappedAndATeamStarts) {
    const pid_t child = ::fork();
    if (child == 0) {
        omp_set_num_threads(100000);
        const auto cap = cap_requested_threads();
        int threads = 0;
#pragma omp parallel
        {
#pragma omp atomic
            ++threads;
        }
        const char* env = std::getenv("OMP_NUM_THREADS");
        const bool ok = cap && cap->asked == 100000 && cap->cap == kMaxThreadsPerCpu * usable_cpus() &&
                        threads <= cap->cap && env && std::to_string(cap->cap) == env;
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    // A count within the cap is left as asked.
    EXPECT_EQ(cap_requested_threads(), std::nullopt);
}

}  // namespace
}  // namespace memwall
