// The process that owns a run or a tuning session while it is measured: its host, pid and start
// (boot id and start time in clock ticks), so that a reused pid is not taken for the owner. A
// run whose owner is gone was killed (kill -9, a crash, a reboot): it is shown as abandoned.
#pragma once

#include <cstdint>
#include <string>

namespace memwall {

struct Owner {
    std::string host;
    std::int64_t pid = 0;
    std::string start;  // "<boot id>/<start time in ticks>"; empty when unknown

    // This process.
    static Owner self();
    // Whether this owner is known to be gone: on this host, its pid no longer runs, or runs a
    // process that started at another time. On another host nothing is known (false).
    bool gone() const;
};

// The start of process `pid` on this host as Owner::start has it; empty when it does not run.
std::string process_start(std::int64_t pid);

}  // namespace memwall
