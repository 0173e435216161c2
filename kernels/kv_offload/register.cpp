// The kv_offload family in the catalogue: its axes, the scratch directory's checks before
// anything is measured, the workload, the CPU variants with their page-cache handling, and the
// tier's ceilings (tier_ceiling.hpp).
#include "kernels/kv_offload/register.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/kv_offload/cpu_kernels.hpp"
#include "kernels/kv_offload/kv_offload.hpp"
#include "kernels/kv_offload/register_cuda.hpp"
#include "kernels/kv_offload/tier_ceiling.hpp"
#include "kernels/kv_offload/variant_case.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

enum class Method { resident, pread, mmap, uring, cached };

std::int64_t cache_pages(const KvProblem& p, const Params& point) {
    return std::llround(point.real("cache") * static_cast<double>(p.selected()));
}

// The model: FLOPs; the tier's bytes (bytes.tier.rand.<page size>, the level the tier's ceiling
// of that read size bounds; none for resident) and what the variant asks of the tier
// (tier.bytes, tier.requests, cache.hits), which its own count in a run matches. `hits`: the
// pages cached serves from DRAM (cached only; the workload's selections give them).
std::vector<Counter> kv_model(const KvProblem& p, const Params& point, Method m, std::uint64_t hits,
                              const MemoryHierarchy& mh) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const auto page = static_cast<double>(p.page_bytes());
    const double selected = static_cast<double>(p.steps * p.selected());
    const double read = (selected - static_cast<double>(hits)) * page;  // from the tier
    double workspace = 0;
    if (m == Method::pread || m == Method::uring) workspace = static_cast<double>(p.selected()) * page;
    if (m == Method::cached) workspace = static_cast<double>(cache_pages(p, point)) * page;
    // Every selected page read by the attention, and each read from the tier written once into
    // DRAM (a staging buffer, the cache, or the page cache), from DRAM. Resident's pages stay where
    // its runs leave them, so they come from the level that holds a thread's share of the whole
    // KV, as stream's arrays do: a KV that fits the last-level cache read at 146% of the DRAM roof.
    const double qo = p.min_bytes() - p.tier_bytes();
    const double moved = m == Method::resident ? p.min_bytes() : qo + selected * page + read;
    const double held = m == Method::resident ? static_cast<double>(p.file_bytes()) / std::max(1, mh.cpus) : inf;
    std::vector<Counter> out = byte_model(p.flops(), p.min_bytes(), workspace, mh, {{held, moved}});
    double requests = 0;
    if (m == Method::pread || m == Method::uring || m == Method::cached) requests = read / page;
    if (m == Method::mmap) {
        const auto os_page = static_cast<double>(::sysconf(_SC_PAGESIZE));
        requests = selected * std::ceil(page / os_page);
    }
    if (m != Method::resident) out.push_back({"bytes." + tier_level(p.page_bytes()), read, "B", CounterSource::model});
    out.push_back({"tier.bytes", read, "B", CounterSource::model});
    out.push_back({"tier.requests", requests, "", CounterSource::model});
    if (m == Method::cached) out.push_back({"cache.hits", static_cast<double>(hits), "pages", CounterSource::model});
    return out;
}

Axis queue_depth_axis() { return bounded(tunable(int_axis("queue_depth", {64}, "io_uring reads in flight")), 1, 4096); }

Variant variant(std::string name, std::string description, Method m) {
    Variant v;
    v.name = std::move(name);
    v.description = std::move(description);
    v.backend = Backend::cpu;
    if (m == Method::uring || m == Method::cached) v.tunables.push_back(queue_depth_axis());
    if (m == Method::cached)
        v.tunables.push_back(
            bounded(tunable(real_axis("cache", {1.0},
                                      "LRU capacity in pages, as a multiple of the pages a step selects "
                                      "(at least 1: a step's pages are all in reach at once)")),
                    1, 64));
    v.prepare = [m](const Workload& wl, const Params& point) -> std::unique_ptr<Instance> {
        const auto& w = workload_as<KvWorkload>(wl);
        std::unique_ptr<kv_cpu::Kernel> k;
        switch (m) {
            case Method::resident: k = kv_cpu::make_resident(w); break;
            case Method::pread: k = kv_cpu::make_pread(w); break;
            case Method::mmap: k = kv_cpu::make_mmap(w); break;
            case Method::uring: k = kv_cpu::make_uring(w, static_cast<unsigned>(point.integer("queue_depth"))); break;
            case Method::cached:
                k = kv_cpu::make_cached(w, static_cast<unsigned>(point.integer("queue_depth")),
                                        cache_pages(w.problem(), point));
                break;
        }
        return std::make_unique<KvInstance>(w, std::move(k));
    };
    if (m == Method::cached)
        v.input_model = [](const Workload& wl, const Params& point, const MemoryHierarchy& mh) {
            const auto& w = workload_as<KvWorkload>(wl);
            return kv_model(w.problem(), point, Method::cached,
                            lru_hits(w.selections(), cache_pages(w.problem(), point)), mh);
        };
    else
        v.model = [m](const Params& point, const MemoryHierarchy& mh) {
            return kv_model(KvProblem::from(point), point, m, 0, mh);
        };
    return v;
}

}  // namespace

void register_kv_offload(Catalogue& c) {
    Family f;
    f.name = "kv_offload";
    f.description =
        "decode attention (one query per head) over the KV pages a selection picks each step (seeded, or by "
        "approximate scores: selection=topk), the "
        "pages in a scratch file in --scratch DIR (else $MEMWALL_SCRATCH, else the temp directory), removed afterwards";
    f.problem_axes = {
        bounded(int_axis("context", {4096}, "tokens in the KV cache"), 1, 1LL << 28),
        bounded(int_axis("page_tokens", {16}, "tokens per page (a page holds every head's K and V of its tokens)"), 1,
                1 << 20),
        bounded(int_axis("heads", {4}, "KV heads, one query each per step"), 1, 1024),
        bounded(int_axis("head_dim", {128}, "elements per key, value and query"), 1, 4096),
        enum_axis("dtype", {"fp32"}, {"fp32"}, "element type of Q, K, V and the output"),
        bounded(real_axis("select", {0.125}, "fraction of the pages selected per step"), 0, 1),
        bounded(real_axis("reuse", {0.5},
                          "seeded selection: fraction of a step's pages the previous step also selected (NOSA's "
                          "locality; under selection=topk the counter reuse measures it)"),
                0, 1),
        enum_axis("selection", {"seeded", "topk"}, {"seeded"},
                  "seeded: pages drawn from the seed with the given reuse; topk: the pages Double Sparsity's "
                  "approximate scores over a label cache rank highest"),
        bounded(int_axis("label_channels", {16}, "selection=topk: label channels per head"), 1, 4096),
        bounded(int_axis("steps", {4}, "decode steps per run, each with its own queries and selection"), 1, 1 << 16),
        enum_axis("tier", {"file"}, {"file"}, "where the pages live: a file in the scratch directory"),
        bounded(
            int_axis("warm", {0}, "1: keep the file's pages in the page cache between runs; 0: evict them before each"),
            0, 1),
    };
    // The scratch directory is checked here, before the database is opened or anything measured.
    f.validate = [](const Params& p) {
        check_scratch_directory(kv_scratch_directory(), KvProblem::from(p).file_bytes());
    };
    f.make_workload = [](const Params& problem, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<KvWorkload>(KvProblem::from(problem), seed, kv_scratch_directory());
    };
    f.ceilings = kv_tier_ceilings;
    c.add_family(std::move(f));
    for (Variant v :
         {variant("resident", "all pages in DRAM: attention straight over the selected pages (the upper bound)",
                  Method::resident),
          variant("pread", "one pread per selected page into a DRAM staging buffer, then attention", Method::pread),
          variant("mmap",
                  "the file mapped; each step's pages touched once per OS page (faults and readahead bring "
                  "them in), then attention over the mapping",
                  Method::mmap),
          variant("uring",
                  "each step's pages read through io_uring (liburing): queue_depth in flight, batched "
                  "submissions, O_DIRECT into a registered page-aligned buffer where the file system and "
                  "page size allow, then attention",
                  Method::uring),
          variant("cached",
                  "an LRU of hot pages in DRAM (cache x the pages a step selects), empty at the start of "
                  "each run; only the misses are read, as uring reads them",
                  Method::cached)})
        c.add_variant("kv_offload", std::move(v));
    register_kv_offload_cuda(c);
}

}  // namespace memwall
