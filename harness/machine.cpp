#include "harness/machine.hpp"

#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "memwall_git_revision.hpp"

namespace memwall {

std::string host_name() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

std::string cpu_description() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0 || line.rfind("Processor", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) model = line.substr(line.find_first_not_of(" \t", colon + 1));
            break;
        }
    }
    return model + ", " + std::to_string(omp_get_max_threads()) + " threads";
}

std::string memwall_git_revision() { return MEMWALL_GIT_REVISION; }

std::string memwall_version() { return MEMWALL_VERSION; }

std::string utc_now() {
    const auto now = std::chrono::system_clock::now();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[80];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}

}  // namespace memwall
