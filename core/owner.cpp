#include "core/owner.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "core/machine.hpp"

namespace memwall {

namespace {

std::string boot_id() {
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string id;
    std::getline(in, id);
    return id;
}

}  // namespace

std::string process_start(std::int64_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(in, stat)) return "";
    // Field 2, the command, is in parentheses and may hold spaces: fields count from its end.
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return "";
    std::istringstream rest(stat.substr(close + 1));
    std::string field;
    for (int i = 3; i <= 22 && rest >> field; ++i) {
        if (i == 22) return boot_id() + "/" + field;
    }
    return "";
}

Owner Owner::self() {
    const auto pid = static_cast<std::int64_t>(::getpid());
    return {host_name(), pid, process_start(pid)};
}

bool Owner::gone() const {
    if (pid <= 0 || host != host_name()) return false;
    const std::string now = process_start(pid);
    return now.empty() || (!start.empty() && now != start);
}

}  // namespace memwall
