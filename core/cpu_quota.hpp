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

}  // namespace memwall
