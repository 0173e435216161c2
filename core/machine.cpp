#include "core/machine.hpp"

#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "memwall_git_revision.hpp"

namespace memwall {

std::string host_name() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0 || line.rfind("Processor", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) model = line.substr(line.find_first_not_of(" \t", colon + 1));
            break;
        }
    }
    return model;
}

std::string cpu_description() { return cpu_model() + ", " + std::to_string(omp_get_max_threads()) + " threads"; }

std::string memwall_git_revision() { return MEMWALL_GIT_REVISION; }

std::string memwall_version() { return MEMWALL_VERSION; }

}  // namespace memwall
