// kv_offload on the CPU against its slow tier (issue 17, acceptance 2): the scratch file's own
// random-read bandwidth (tier_ceiling.hpp, fio's method: O_DIRECT reads through io_uring at queue
// depths 1 to 64), then for page sizes 4 KiB to 1 MiB every variant's GB/s from the tier, side by
// side: bytes it read from the file over its io phase (the median of the timed runs; attention's
// time is the same for all and printed apart). Targets: uring >= 70% of the ceiling at pages of
// 64 KiB and more; cached (reuse 0.8) reads <= 0.3x uring's bytes, and its io takes
// correspondingly less time (at most 1.5x the bytes ratio of uring's).
//   bench_kv_offload [rounds] [scratch dir]   (7, $MEMWALL_SCRATCH or the temp directory)
// The problem: a 256 MiB KV file (heads 4, head_dim 128: 4 KiB per token), 1/64 of the pages
// selected per step, reuse 0.8, 16 steps, cold (the page cache evicted before each run of the
// variants that use it). Every variant is checked against the float64 reference first; variants
// run in rounds, one run each per round, so a load that comes and goes affects them alike.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/machine.hpp"
#include "kernels/kv_offload/kv_offload.hpp"
#include "kernels/kv_offload/register.hpp"
#include "kernels/kv_offload/scratch_file.hpp"
#include "kernels/kv_offload/tier_ceiling.hpp"
#include "kernels/kv_offload/variant_case.hpp"

namespace {

using namespace memwall;

constexpr std::int64_t token_bytes = 2 * 4 * 128 * 4;  // K and V of 4 heads of 128 floats
constexpr std::uint64_t file_bytes = std::uint64_t{256} << 20;
const std::vector<std::string> variants = {"resident", "pread", "mmap", "uring", "cached"};

double counter_value(const std::vector<Counter>& cs, const char* name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : 0.0;
}

Params point(const Catalogue& cat, const std::string& variant, std::size_t page) {
    Space s = cat.family("kv_offload").space(cat.variant("kv_offload", variant, Backend::cpu));
    const auto page_tokens = static_cast<std::int64_t>(page) / token_bytes;
    const std::vector<std::string> overrides = {"context=" + std::to_string(file_bytes / token_bytes),
                                                "page_tokens=" + std::to_string(page_tokens),
                                                "heads=4",
                                                "head_dim=128",
                                                "select=0.015625",
                                                "reuse=0.8",
                                                "steps=16"};
    for (const auto& o : overrides) s.apply_override(o);
    return s.points().front();
}

std::string size_name(std::size_t b) {
    return b >= (1u << 20) ? std::to_string(b >> 20) + " MiB" : std::to_string(b >> 10) + " KiB";
}

}  // namespace

int main(int argc, char** argv) {
    const long rounds = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 7;
    if (rounds < 3 || rounds > 1000) {
        std::fprintf(stderr, "usage: bench_kv_offload [rounds 3..1000] [scratch dir]\n");
        return 2;
    }
    if (argc > 2) ::setenv("MEMWALL_SCRATCH", argv[2], 1);
    const std::filesystem::path dir = kv_scratch_directory();
    Catalogue cat;
    register_kv_offload(cat);
    const Family& family = cat.family("kv_offload");
    const MemoryHierarchy mh = detect_memory_hierarchy();
    std::printf("host: %s, %d threads; scratch directory %s; KV file %s\n", cpu_model().c_str(), mh.cpus, dir.c_str(),
                size_name(file_bytes).c_str());

    TierOptions topt;
    topt.file_bytes = file_bytes;
    topt.seconds_per_point = 0.2;
    const TierMeasurement tier = measure_tier(dir, topt);
    std::printf("\nthe tier's random reads, GB/s (O_DIRECT through io_uring over a %s file, as fio's randread):\n",
                size_name(file_bytes).c_str());
    std::printf("%8s", "block");
    for (unsigned d : topt.depths) std::printf("  QD%-4u", d);
    std::printf("   best (the ceiling)\n");
    std::map<std::size_t, double> ceiling;
    for (std::size_t b : topt.blocks) {
        std::printf("%8s", size_name(b).c_str());
        for (const TierPoint& p : tier.points)
            if (p.random && p.block == b) {
                std::printf("  %6.2f", p.bytes_per_second / 1e9);
                ceiling[b] = std::max(ceiling[b], p.bytes_per_second);
            }
        std::printf("   %6.2f\n", ceiling[b] / 1e9);
    }
    for (const TierPoint& p : tier.points)
        if (!p.random) std::printf("sequential 1 MiB reads, QD%u: %.2f GB/s\n", p.depth, p.bytes_per_second / 1e9);

    std::printf("\nGB/s from the tier = file bytes read / io phase (median of %ld rounds); resident reads DRAM, not "
                "the tier;\nattention: uring's attention phase, ms per run (every variant attends alike)\n\n",
                rounds);
    std::printf("%8s %8s |", "page", "ceiling");
    for (const auto& v : variants) std::printf(" %9s", v.c_str());
    std::printf(" | %9s %6s | %14s %12s | %s\n", "uring/ceil", "target", "cached/uring B", "io time", "attention");
    bool all_ok = true, met_uring = true, met_cached = true;
    for (std::size_t page : tier_block_sizes()) {
        std::vector<std::unique_ptr<Instance>> instances;
        std::unique_ptr<Workload> w;
        for (const auto& v : variants) {
            const Params p = point(cat, v, page);
            const Variant& var = cat.variant("kv_offload", v, Backend::cpu);
            if (!w) w = family.make_workload(family.space(var).project(p, AxisRole::problem), 1);
            auto inst = var.prepare(*w, p);
            inst->poison();
            inst->run();
            if (const Check c = inst->check(); !c.ok) {
                std::printf("%s page %s: FAILED the check: %s\n", v.c_str(), size_name(page).c_str(), c.message.c_str());
                all_ok = false;
            }
            instances.push_back(std::move(inst));
        }
        // An instance's run leaves pages mapped (mmap) that the next one's eviction cannot drop:
        // every instance lets go of the file before another runs.
        auto release = [&] {
            for (auto& inst : instances) dynamic_cast<KvInstance&>(*inst).release();
        };
        for (long r = 0; r < rounds; ++r)
            for (auto& inst : instances) {
                release();
                (void)inst->run_timed();
            }
        std::vector<double> rate(variants.size()), bytes(variants.size()), io(variants.size());
        for (std::size_t i = 0; i < variants.size(); ++i) {
            const auto& kv = dynamic_cast<const KvInstance&>(*instances[i]);
            const auto phases = instances[i]->sampled_counters();
            bytes[i] = static_cast<double>(kv.tally().bytes);
            io[i] = counter_value(phases, "phase.io.seconds");
            rate[i] = io[i] > 0 ? bytes[i] / io[i] : bytes[i] / counter_value(phases, "phase.attention.seconds");
        }
        const std::size_t uring = 3, cached = 4;
        const double ceil = ceiling[page], of_ceiling = rate[uring] / ceil;
        const bool uring_ok = page < (64u << 10) || of_ceiling >= 0.7;
        const double bytes_ratio = bytes[cached] / bytes[uring], time_ratio = io[cached] / io[uring];
        const bool cached_ok = bytes_ratio <= 0.3 && time_ratio <= 1.5 * bytes_ratio;
        met_uring = met_uring && uring_ok;
        met_cached = met_cached && cached_ok;
        std::printf("%8s %8.2f |", size_name(page).c_str(), ceil / 1e9);
        for (double r : rate) std::printf(" %9.2f", r / 1e9);
        std::printf(" | %8.0f%% %6s | %5.2fx %-8s %5.2fx %s | %6.2f ms\n", 100 * of_ceiling,
                    page < (64u << 10) ? "-" : (uring_ok ? "met" : "MISSED"), bytes_ratio, cached_ok ? "met" : "MISSED",
                    time_ratio, "", 1e3 * counter_value(instances[uring]->sampled_counters(), "phase.attention.seconds"));
        if (page == tier_block_sizes().front() || page == (64u << 10))
            for (std::size_t i = 1; i < variants.size(); ++i)
                std::printf("    %s: %s\n", variants[i].c_str(), instances[i]->detail().c_str());
    }
    std::printf("\ntargets: uring >= 70%% of the ceiling at pages >= 64 KiB: %s; cached <= 0.3x uring's bytes and "
                "correspondingly faster: %s\n",
                met_uring ? "met" : "MISSED", met_cached ? "met" : "MISSED");
    return all_ok ? 0 : 1;
}
