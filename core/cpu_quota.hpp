// The CPUs a Linux cgroup's CPU quota lets this process use. A container's quota (cgroup v2
// cpu.max, v1 cpu.cfs_quota_us over cpu.cfs_period_us) is not in the affinity mask that OpenMP
// sizes its teams by: on a host that shows 16 CPUs and grants 4, sixteen threads take turns, so
// no ceiling round has its threads running together and every kernel is oversubscribed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace memwall {

// cpu.max's "QUOTA PERIOD": the CPUs it grants, rounded down (at least 1); nullopt for "max PERIOD"
// (no limit) or text that is not a quota.
std::optional<int> cpus_of_cpu_max(std::string_view text);
// v1's cpu.cfs_quota_us and cpu.cfs_period_us (quota -1: no limit), the same way.
std::optional<int> cpus_of_cfs(std::string_view quota, std::string_view period);
// The tightest quota on a cgroup and its ancestors: `self_cgroup` is /proc/self/cgroup's text
// and `root` the cgroup file system's mount (/sys/fs/cgroup). nullopt when none limits.
std::optional<int> cgroup_cpu_limit(std::string_view self_cgroup, const std::string& root);
// This process's, from /proc/self/cgroup under /sys/fs/cgroup.
std::optional<int> cgroup_cpu_limit();
// Caps OpenMP's default team at this process's quota, unless OMP_NUM_THREADS chose a size;
// returns the quota when it capped the team.
std::optional<int> fit_threads_to_cpu_quota();

// The CPUs this process may run on: its affinity mask, or the cgroup's quota where tighter.
int usable_cpus();

// A team OMP_NUM_THREADS asks for beyond this many threads per usable CPU is capped: its threads
// cannot run together, and libgomp starts a team with each thread's start data on the starting
// thread's stack (alloca), which 100000 threads overflow (SIGSEGV in every kernel's set-up).
inline constexpr int kMaxThreadsPerCpu = 4;

struct ThreadCap {
    int asked = 0, cap = 0;
};
// Caps OpenMP's team (and OMP_NUM_THREADS, which case workers inherit) at kMaxThreadsPerCpu
// times usable_cpus(); returns what was asked and the cap when it capped.
std::optional<ThreadCap> cap_requested_threads();

}  // namespace memwall
