#include "cli/isolation_args.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/bytes.hpp"
#include "core/errors.hpp"

namespace memwall::cli {

namespace {

std::string this_executable() {
    char path[4096];
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        throw InputError(std::string("cannot find memwall's own executable for its case workers: ") +
                         std::strerror(errno) + " (--no-isolate measures cases in this process)");
    return std::string(path, static_cast<std::size_t>(n));
}

}  // namespace

std::string plain_number(double v, int digits) {
    // %g writes 100 at 2 digits as 1e+02; the decimals are chosen here instead.
    const int magnitude = v > 0 ? static_cast<int>(std::floor(std::log10(v))) : 0;
    const int decimals = std::clamp(digits - 1 - magnitude, 0, 12);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string out = buf;
    if (out.find('.') != std::string::npos) {
        out.erase(out.find_last_not_of('0') + 1);
        if (out.back() == '.') out.pop_back();
    }
    return out;
}

void add_isolation_options(CLI::App* cmd, IsolationArgs& a) {
    cmd->add_flag("--no-isolate", a.no_isolate,
                  "measure cases in this process, not in a worker process (for a debugger; a crashing case then "
                  "ends the command)");
    cmd->add_option("--case-memory", a.case_memory,
                    "memory a case may allocate, e.g. 8GiB (default: no limit); past it the case fails alone");
    cmd->add_option("--scratch", a.scratch,
                    "directory for the files a family keeps its data in (kv_offload's slow tier), created and removed "
                    "by the run (default: $MEMWALL_SCRATCH, else the temp directory)")
        ->each([](const std::string& dir) { ::setenv("MEMWALL_SCRATCH", dir.c_str(), 1); });
}

IsolationOptions isolation_from(const IsolationArgs& a) {
    IsolationOptions o;
    if (a.no_isolate) {
        if (!a.case_memory.empty()) throw UsageError("--case-memory needs isolation: drop --no-isolate");
        return o;
    }
    o.worker_command = {this_executable(), "case-worker"};
    if (!a.case_memory.empty()) o.memory_limit = parse_bytes(a.case_memory, "--case-memory");
    return o;
}

std::string isolation_summary(const IsolationStats& s) {
    const double overhead = s.overhead_seconds + s.start_seconds;
    const double total = s.case_seconds + overhead;
    return "isolation: " + std::to_string(s.cases) + " cases in " + std::to_string(s.worker_starts) +
           " worker process" + (s.worker_starts == 1 ? "" : "es") + ", " + plain_number(overhead, 3) +
           " s of overhead (" + plain_number(total > 0 ? 100 * overhead / total : 0.0, 2) + "% of " +
           plain_number(total, 3) + " s)";
}

}  // namespace memwall::cli
