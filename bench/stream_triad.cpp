// stream/triad on the CPU against the DRAM ceiling memwall measures (ERT a = a*b + c), at arrays
// of 4x the last-level cache (--llc-factor). The host's memory speed wanders (on shared VMs it
// moves between states for seconds at a time), so each round measures the ceiling and then both
// triad variants right after it, and the ratios are taken round by round. Triad's GB/s use
// STREAM's count (12 bytes per element; the loop variant really moves 16: write-allocate).
//   bench_stream_triad [--rounds R] [--llc-factor F]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/machine.hpp"
#include "harness/sampler.hpp"
#include "kernels/stream/register.hpp"
#include "kernels/stream/stream.hpp"
#include "profiler/measure_ceilings.hpp"
#include "stats/statistics.hpp"

namespace {

using namespace memwall;

struct Triad {
    double median_gbs = 0, best_gbs = 0;
};

Triad measure(const Variant& v, const Workload& w, const Params& point, double stream_bytes) {
    auto inst = v.prepare(w, point);
    inst->poison();
    inst->run();
    const Check c = inst->check();
    if (!c.ok) {
        std::fprintf(stderr, "stream/%s failed its check: %s\n", v.name.c_str(), c.message.c_str());
        std::exit(1);
    }
    const Sampling s = take_samples([&] { return inst->run_timed(); }, SamplerSettings{});
    const Summary sum = summarize(s.seconds);
    return {stream_bytes / sum.median / 1e9, stream_bytes / sum.min / 1e9};
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 5;
    double factor = 4;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--rounds") == 0)
            rounds = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--llc-factor") == 0)
            factor = std::atof(argv[i + 1]);
    }
    const MemoryHierarchy mh = detect_memory_hierarchy();
    const double llc = mh.caches.empty() ? 32.0 * (1 << 20) : static_cast<double>(mh.caches.back().bytes);
    const auto n = static_cast<std::int64_t>(factor * llc / 4);
    std::printf("host: %s\nlast-level cache %.0f MiB; arrays of %.0f MiB (%lld floats, %.3gx the LLC)\n\n",
                cpu_description().c_str(), llc / (1 << 20), 4.0 * static_cast<double>(n) / (1 << 20),
                static_cast<long long>(n), factor);

    Catalogue cat;
    register_stream(cat);
    Params point;
    point.set("op", std::string("triad"));
    point.set("n", n);
    const auto w = cat.family("stream").make_workload(point, 1);
    const double bytes = StreamProblem::from(point).stream_bytes();
    const Variant& loop = cat.variant("stream", "loop", Backend::cpu);
    const Variant& nt = cat.variant("stream", "nontemporal", Backend::cpu);

    // The DRAM segment of memwall's ceiling sweep alone: working sets beyond 4x the LLC.
    CeilingOptions opt;
    const double llc_total =
        mh.caches.empty() ? llc : static_cast<double>(mh.per_thread_bytes(mh.caches.back().name)) * mh.cpus;
    opt.min_working_set = 4.5 * llc_total;
    opt.max_working_set = 8 * llc_total;
    std::printf("%5s  %14s  %26s  %26s\n", "round", "DRAM ceiling", "triad loop median (best)",
                "triad nontemporal median (best)");
    std::vector<double> ratio_loop, ratio_nt, ratio_nt_best;
    for (int r = 0; r < rounds; ++r) {
        const Ceiling* dram = nullptr;
        const CeilingMeasurement m = measure_cpu_ceilings(mh, opt);
        dram = m.ceilings.find("dram");
        if (!dram) {
            std::fprintf(stderr, "no DRAM ceiling measured\n");
            return 1;
        }
        const Triad a = measure(loop, *w, point, bytes), b = measure(nt, *w, point, bytes);
        const double c = dram->value / 1e9;
        ratio_loop.push_back(a.median_gbs / c);
        ratio_nt.push_back(b.median_gbs / c);
        ratio_nt_best.push_back(b.best_gbs / c);
        std::printf("%5d  %9.1f GB/s  %6.1f (%5.1f) GB/s %5.1f%%  %6.1f (%5.1f) GB/s %5.1f%%\n", r + 1, c, a.median_gbs,
                    a.best_gbs, 100 * a.median_gbs / c, b.median_gbs, b.best_gbs, 100 * b.median_gbs / c);
    }
    const double loop_share = median(ratio_loop), nt_share = median(ratio_nt);
    std::printf(
        "\nmedian over rounds, triad's median GB/s as a share of the DRAM ceiling measured before it:\n"
        "  loop (ordinary stores; 16 bytes moved per 12 counted)  %5.1f%%\n"
        "  nontemporal (streaming stores)                          %5.1f%%  (best samples: %.1f%%)\n"
        "target: >= 85%%: %s\n",
        100 * loop_share, 100 * nt_share, 100 * median(ratio_nt_best),
        nt_share >= 0.85 ? "met (nontemporal)" : "missed");
    return 0;
}
