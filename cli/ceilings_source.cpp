#include "cli/ceilings_source.hpp"

#include <unistd.h>

#include <cstdio>

#include "core/machine.hpp"

namespace memwall::cli {

CeilingMeasurement measure_ceilings_now(const MemoryHierarchy& mh, bool progress) {
    CeilingOptions opt;
    if (progress && isatty(STDERR_FILENO)) {
        opt.progress = [](double f) {
            std::fprintf(stderr, "\r\033[Kmeasuring ceilings %3.0f%%", f * 100);
            std::fflush(stderr);
        };
    }
    CeilingMeasurement m = measure_cpu_ceilings(mh, opt);
    if (opt.progress) std::fputs("\r\033[K", stderr);
    return m;
}

Ceilings ceilings_for_run(const Store& store, std::int64_t run_id, const std::string& mode,
                          const MemoryHierarchy& mh, bool progress) {
    if (mode == "none") return {};
    if (mode == "reuse") {
        if (auto from = store.latest_ceilings_run(host_name(), "cpu"); from && *from != run_id) {
            Ceilings c = store.ceilings(*from);
            for (auto& x : c.items) x.method += " (reused from run " + std::to_string(*from) + ")";
            return c;
        }
    }
    const CeilingMeasurement m = measure_ceilings_now(mh, progress);
    for (const auto& level : m.not_found) std::fprintf(stderr, "memwall: ceiling not found: %s\n", level.c_str());
    return m.ceilings;
}

}  // namespace memwall::cli
