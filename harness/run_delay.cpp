#include "harness/run_delay.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <system_error>

namespace memwall {

namespace {

// The second field of a schedstat file ("<on-cpu ns> <run-delay ns> <slices>"), in seconds.
// Read with one open and read: this runs twice per sample, beside kernels of microseconds.
std::optional<double> delay_of(const std::filesystem::path& schedstat) {
    const int fd = ::open(schedstat.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char buf[128];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return std::nullopt;
    buf[n] = '\0';
    unsigned long long on_cpu = 0, delay = 0;
    if (std::sscanf(buf, "%llu %llu", &on_cpu, &delay) != 2) return std::nullopt;
    return static_cast<double>(delay) * 1e-9;
}

}  // namespace

std::optional<double> run_delay_seconds(const std::filesystem::path& task_dir) {
    std::error_code ec;
    std::filesystem::directory_iterator it(task_dir, ec);
    if (ec) return std::nullopt;
    double total = 0;
    bool any = false;
    for (const auto& task : it) {
        // A thread that ended between the listing and the read has nothing more to add.
        if (auto d = delay_of(task.path() / "schedstat")) {
            total += *d;
            any = true;
        }
    }
    if (!any) return std::nullopt;
    return total;
}

RunDelaySource process_run_delay() {
    if (!run_delay_seconds()) return {};
    return [] { return run_delay_seconds().value_or(0); };
}

}  // namespace memwall
