// What per-case isolation costs on the default sweep (`memwall run`: every family on cpu, its
// default axes): each case is measured twice, in a worker process (`memwall case-worker`, as
// run does) and in this process, alternating which goes first. It prints, per case and in all,
// the workers' round-trip overhead (time beside the workers' own time for their cases, plus
// worker start-up) and both wall times. The overhead is the figure to read: the wall times
// differ by the machine's noise as much as by isolation. Target: overhead <= 5% of the sweep.
// Usage: bench_isolation_overhead [--family NAME]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/catalogue.hpp"
#include "core/machine.hpp"
#include "harness/isolated_measurer.hpp"
#include "harness/sweep.hpp"
#include "kernels/register_builtin.hpp"
#include "metrics/memory_hierarchy.hpp"

int main(int argc, char** argv) {
    using namespace memwall;
    using Clock = std::chrono::steady_clock;
    SweepSpec spec;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--family") == 0 && i + 1 < argc) {
            spec.families.push_back(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--family NAME]\n", argv[0]);
            return 2;
        }
    }
    Catalogue cat;
    register_builtin_kernels(cat);
    const std::vector<PlannedCase> cases = expand_sweep(spec, cat);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    MeasureOptions opt;
    opt.sampler = spec.sampler;
    IsolatedMeasurer isolated({.worker_command = {MEMWALL_BINARY, "case-worker"}});
    isolated.ready();
    InProcessMeasurer local(mh);

    std::printf("%s; %zu cases of the default sweep, each measured in a worker and in this process\n\n",
                cpu_description().c_str(), cases.size());
    std::printf("%-58s %12s %12s %14s\n", "case", "isolated s", "in-process s", "overhead ms");
    double wall_isolated = 0, wall_local = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto timed = [&](CaseMeasurer& m) {
            const auto t0 = Clock::now();
            const CaseRecord r = m.measure(cases[i], spec.seed, opt);
            if (r.status != CaseStatus::ok)
                std::fprintf(stderr, "%s: %s\n", cases[i].name().c_str(), r.message.c_str());
            return std::chrono::duration<double>(Clock::now() - t0).count();
        };
        const double before = isolated.stats().overhead_seconds;
        double a = 0, b = 0;
        if (i % 2 == 0) {
            a = timed(isolated);
            b = timed(local);
        } else {
            b = timed(local);
            a = timed(isolated);
        }
        wall_isolated += a;
        wall_local += b;
        std::printf("%-58s %12.3f %12.3f %14.3f\n", cases[i].name().substr(0, 58).c_str(), a, b,
                    1e3 * (isolated.stats().overhead_seconds - before));
    }
    const IsolationStats& s = isolated.stats();
    const double overhead = s.overhead_seconds + s.start_seconds;
    std::printf(
        "\nisolation overhead: %.3f s over %zu cases (%.2f ms per case; worker start-up %.1f ms), "
        "%.3f%% of the isolated sweep's %.1f s (target <= 5%%)\n",
        overhead, s.cases, 1e3 * s.overhead_seconds / static_cast<double>(s.cases), 1e3 * s.start_seconds,
        100 * overhead / wall_isolated, wall_isolated);
    std::printf("wall time: isolated %.1f s, in this process %.1f s (difference %+.1f%%, machine noise included)\n",
                wall_isolated, wall_local, 100 * (wall_isolated / wall_local - 1));
    return 0;
}
