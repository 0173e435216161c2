#include "core/cpu_quota.hpp"

#include <omp.h>
#include <sched.h>
#include <stdlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

namespace memwall {

namespace {

std::string_view trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\n");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\n") - first + 1);
}

std::optional<long long> whole(std::string_view s) {
    s = trimmed(s);
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return v;
}

// Rounded down, at least 1: with 1.5 CPUs granted, two threads would be throttled a quarter of
// the time, and the ceilings need threads that run at once.
std::optional<int> cpus_of(long long quota, long long period) {
    if (quota <= 0 || period <= 0) return std::nullopt;
    const double cpus = std::floor(static_cast<double>(quota) / static_cast<double>(period));
    return static_cast<int>(std::clamp(cpus, 1.0, static_cast<double>(std::numeric_limits<int>::max())));
}

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// "/a/b", "/a", "/": a cgroup and its ancestors, up to the root.
std::vector<std::string> with_ancestors(std::string path) {
    if (path.empty() || path.front() != '/') path.insert(path.begin(), '/');
    std::vector<std::string> out{path};
    while (path.size() > 1) {
        path.erase(path.find_last_of('/'));
        if (path.empty()) path = "/";
        out.push_back(path);
    }
    return out;
}

void keep_tightest(std::optional<int>& limit, std::optional<int> found) {
    if (found && (!limit || *found < *limit)) limit = found;
}

}  // namespace

std::optional<int> cpus_of_cpu_max(std::string_view text) {
    text = trimmed(text);
    const auto space = text.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    const auto quota = whole(text.substr(0, space));
    const auto period = whole(text.substr(space + 1));
    if (!quota || !period) return std::nullopt;  // "max": no limit
    return cpus_of(*quota, *period);
}

std::optional<int> cpus_of_cfs(std::string_view quota, std::string_view period) {
    const auto q = whole(quota), p = whole(period);
    if (!q || !p) return std::nullopt;
    return cpus_of(*q, *p);
}

std::optional<int> cgroup_cpu_limit(std::string_view self_cgroup, const std::string& root) {
    std::optional<int> limit;
    std::istringstream lines{std::string(self_cgroup)};
    std::string line;
    while (std::getline(lines, line)) {
        // "ID:CONTROLLERS:PATH"; v2's is "0::PATH".
        const auto a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        // Without a cgroup namespace a container sees its host's path, which its own mount (the
        // container's subtree) lacks: the ancestors, the mount's root last, still say what limits it.
        if (controllers.empty()) {
            for (const std::string& dir : with_ancestors(path))
                if (auto text = read_file(root + (dir == "/" ? "" : dir) + "/cpu.max"))
                    keep_tightest(limit, cpus_of_cpu_max(*text));
            continue;
        }
        const std::string listed = "," + controllers + ",";
        if (listed.find(",cpu,") == std::string::npos) continue;
        std::vector<std::string> mounts{root + "/" + controllers};
        if (controllers != "cpu") mounts.push_back(root + "/cpu");
        for (const std::string& mount : mounts)
            for (const std::string& dir : with_ancestors(path)) {
                const std::string base = mount + (dir == "/" ? "" : dir);
                const auto quota = read_file(base + "/cpu.cfs_quota_us");
                const auto period = read_file(base + "/cpu.cfs_period_us");
                if (quota && period) keep_tightest(limit, cpus_of_cfs(*quota, *period));
            }
    }
    return limit;
}

std::optional<int> cgroup_cpu_limit() {
    const auto self = read_file("/proc/self/cgroup");
    return self ? cgroup_cpu_limit(*self, "/sys/fs/cgroup") : std::nullopt;
}

int usable_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpus = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    if (cpus <= 0) cpus = std::max(1, omp_get_num_procs());
    if (const auto limit = cgroup_cpu_limit()) cpus = std::min(cpus, *limit);
    return cpus;
}

std::optional<ThreadCap> cap_requested_threads() {
    const int asked = omp_get_max_threads();
    const int cap = kMaxThreadsPerCpu * usable_cpus();
    if (asked <= cap) return std::nullopt;
    omp_set_num_threads(cap);
    ::setenv("OMP_NUM_THREADS", std::to_string(cap).c_str(), 1);
    return ThreadCap{asked, cap};
}

std::optional<int> fit_threads_to_cpu_quota() {
    const char* chosen = std::getenv("OMP_NUM_THREADS");
    if (chosen && *chosen) return std::nullopt;
    const auto limit = cgroup_cpu_limit();
    if (!limit || *limit >= omp_get_max_threads()) return std::nullopt;
    omp_set_num_threads(*limit);
    return limit;
}

}  // namespace memwall
