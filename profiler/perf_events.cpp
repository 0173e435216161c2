#include "profiler/perf_events.hpp"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

namespace memwall {

namespace {

// fd, or -errno.
int open_event(const PerfEventSpec& e, pid_t tid, int group_fd) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = e.type;
    attr.config = e.config;
    attr.disabled = group_fd == -1 ? 1 : 0;  // the leader starts the group
    attr.inherit = 1;
    attr.exclude_kernel = 1;  // what perf_event_paranoid 2, the common default, allows
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    long fd = syscall(SYS_perf_event_open, &attr, tid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : static_cast<int>(fd);
}

std::string paranoid_level() {
    std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
    std::string level;
    return in >> level ? level : "unknown";
}

std::string open_failure(const std::string& event, int err) {
    std::string reason = "perf_event_open(" + event + "): " + std::strerror(err);
    switch (err) {
        case ENOENT:
        case ENODEV:
        case EOPNOTSUPP: return reason + ": this machine exposes no hardware PMU (common in VMs)";
        case EACCES:
        case EPERM:
            return reason + ": not permitted (kernel.perf_event_paranoid = " + paranoid_level() +
                   "); lower it or grant CAP_PERFMON";
        case ENOSYS: return reason + ": the kernel has no perf_event support";
        default: return reason;
    }
}

std::uint64_t cache_config(std::uint64_t cache, std::uint64_t result) {
    return cache | (std::uint64_t{PERF_COUNT_HW_CACHE_OP_READ} << 8) | (result << 16);
}

// This process's threads, the calling one first.
std::vector<pid_t> process_threads() {
    const auto self = static_cast<pid_t>(syscall(SYS_gettid));
    std::vector<pid_t> tids{self};
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
        const std::string name = entry.path().filename().string();
        pid_t tid = 0;
        auto [end, err] = std::from_chars(name.data(), name.data() + name.size(), tid);
        if (err == std::errc{} && end == name.data() + name.size() && tid != self) tids.push_back(tid);
    }
    return tids;
}

}  // namespace

PerfAvailability probe_perf_events() {
    int fd = open_event({"cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES}, 0, -1);
    if (fd < 0) return {false, open_failure("cycles", -fd)};
    close(fd);
    return {true, ""};
}

std::vector<PerfEventSpec> default_perf_events() {
    using C = std::uint64_t;
    return {
        {"cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true},
        {"instructions", "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true},
        {"llc.loads", "loads", PERF_TYPE_HW_CACHE,
         cache_config(PERF_COUNT_HW_CACHE_LL, C{PERF_COUNT_HW_CACHE_RESULT_ACCESS}), false},
        {"llc.load_misses", "loads", PERF_TYPE_HW_CACHE,
         cache_config(PERF_COUNT_HW_CACHE_LL, C{PERF_COUNT_HW_CACHE_RESULT_MISS}), false},
        {"l1d.loads", "loads", PERF_TYPE_HW_CACHE,
         cache_config(PERF_COUNT_HW_CACHE_L1D, C{PERF_COUNT_HW_CACHE_RESULT_ACCESS}), false},
        {"l1d.load_misses", "loads", PERF_TYPE_HW_CACHE,
         cache_config(PERF_COUNT_HW_CACHE_L1D, C{PERF_COUNT_HW_CACHE_RESULT_MISS}), false},
    };
}

PerfCounterGroup::PerfCounterGroup(const std::vector<PerfEventSpec>& events) {
    if (events.empty()) throw std::invalid_argument("perf counter group: no events");
    const auto tids = process_threads();

    // The calling thread decides which events exist; the other threads open the same set.
    std::vector<int> first;
    for (const auto& e : events) {
        int fd = open_event(e, tids[0], first.empty() ? -1 : first[0]);
        if (fd >= 0) {
            first.push_back(fd);
            events_.push_back(e);
        } else if (e.required) {
            for (int f : first) close(f);
            throw std::runtime_error(open_failure(e.name, -fd));
        } else {
            missing_.push_back(e.name);
        }
    }
    if (first.empty()) throw std::runtime_error("perf counter group: none of the optional events could be opened");
    fds_.push_back(std::move(first));

    for (std::size_t t = 1; t < tids.size(); ++t) {
        std::vector<int> group;
        int err = 0;
        for (const auto& e : events_) {
            int fd = open_event(e, tids[t], group.empty() ? -1 : group[0]);
            if (fd < 0) {
                err = -fd;
                break;
            }
            group.push_back(fd);
        }
        if (err == 0) {
            fds_.push_back(std::move(group));
            continue;
        }
        // A thread that exited meanwhile (ESRCH) no longer needs counting; anything else would
        // leave counts out, so it is an error.
        for (int f : group) close(f);
        if (err != ESRCH) {
            close_all();
            throw std::runtime_error(open_failure(events_[group.size()].name, err));
        }
    }
}

PerfCounterGroup::~PerfCounterGroup() { close_all(); }

PerfCounterGroup::PerfCounterGroup(PerfCounterGroup&& o) noexcept
    : events_(std::move(o.events_)),
      fds_(std::exchange(o.fds_, {})),
      missing_(std::move(o.missing_)),
      started_(o.started_) {}

PerfCounterGroup& PerfCounterGroup::operator=(PerfCounterGroup&& o) noexcept {
    if (this != &o) {
        close_all();
        events_ = std::move(o.events_);
        fds_ = std::exchange(o.fds_, {});
        missing_ = std::move(o.missing_);
        started_ = o.started_;
    }
    return *this;
}

void PerfCounterGroup::close_all() {
    for (const auto& group : fds_)
        for (int fd : group) close(fd);
    fds_.clear();
}

void PerfCounterGroup::start() {
    for (const auto& group : fds_) {
        ioctl(group[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
        ioctl(group[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    }
    started_ = true;
}

void PerfCounterGroup::stop() {
    for (const auto& group : fds_) ioctl(group[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

std::vector<Counter> PerfCounterGroup::read() const {
    if (!started_) throw std::logic_error("perf counters read before start()");
    std::vector<Counter> out;
    for (std::size_t e = 0; e < events_.size(); ++e) {
        double total = 0;
        bool ran = false;
        for (const auto& group : fds_) {
            std::uint64_t v[3] = {};  // value, time enabled, time running
            if (::read(group[e], v, sizeof v) != static_cast<ssize_t>(sizeof v))
                throw std::runtime_error("perf counter " + events_[e].name + ": read: " + std::strerror(errno));
            if (v[2] == 0) continue;
            ran = true;
            total += static_cast<double>(v[0]) * static_cast<double>(v[1]) / static_cast<double>(v[2]);
        }
        if (ran) out.push_back({events_[e].name, total, events_[e].unit, CounterSource::perf});
    }
    return out;
}

}  // namespace memwall
