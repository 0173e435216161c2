// Memory traffic of emulated launches: for global memory, exact counts of what the threads
// requested, a warp coalescing model, and cache-model estimates of L2 and DRAM traffic; for
// shared memory, exact counts of what the threads requested; for mapped pinned host memory
// (zero-copy), exact counts and the 32-byte sectors of each warp request (rules in README.md).
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/counter.hpp"

namespace memwall::emu {

// One kind of global access (loads, stores or atomics).
struct AccessCounts {
    std::uint64_t bytes = 0;       // requested by the threads (exact)
    std::uint64_t accesses = 0;    // thread-level accesses (exact)
    std::uint64_t requests = 0;    // warp-level: the n-th execution of an access site by the lanes
    std::uint64_t sectors = 0;     // distinct 32-byte sectors of each warp request, summed
    std::uint64_t l2_sectors = 0;  // sectors that reach L2 (loads: the misses of the L1 model)

    AccessCounts& operator+=(const AccessCounts& o);
    bool operator==(const AccessCounts&) const = default;
};

// One kind of shared-memory access (loads, stores or atomics).
struct SharedAccessCounts {
    std::uint64_t bytes = 0;     // requested by the threads (exact)
    std::uint64_t accesses = 0;  // thread-level accesses (exact)
    std::uint64_t requests = 0;  // warp-level, formed as global requests are (a model)

    SharedAccessCounts& operator+=(const SharedAccessCounts& o);
    bool operator==(const SharedAccessCounts&) const = default;
};

// Accesses to static __shared__ variables and to the block's dynamic shared memory.
struct SharedTraffic {
    SharedAccessCounts load, store, atomic;

    SharedTraffic& operator+=(const SharedTraffic& o);
    bool operator==(const SharedTraffic&) const = default;
};

// One kind of access to mapped pinned host memory (loads, stores or atomics): what crosses the
// bus (PCIe, NVLink-C2C) when a kernel reads host memory directly. No cache model: each warp
// request's sectors are fetched from the host.
struct HostAccessCounts {
    std::uint64_t bytes = 0;     // requested by the threads (exact)
    std::uint64_t accesses = 0;  // thread-level accesses (exact)
    std::uint64_t requests = 0;  // warp-level, formed as global requests are
    std::uint64_t sectors = 0;   // distinct 32-byte sectors of each warp request, summed

    HostAccessCounts& operator+=(const HostAccessCounts& o);
    bool operator==(const HostAccessCounts&) const = default;
};

struct HostTraffic {
    HostAccessCounts load, store, atomic;

    HostTraffic& operator+=(const HostTraffic& o);
    bool operator==(const HostTraffic&) const = default;
    bool touched() const { return load.accesses + store.accesses + atomic.accesses > 0; }
};

// FLOPs of warp matrix instructions (mma.sync) by input type, 2 m n k each (exact).
struct TensorFlops {
    std::uint64_t bf16 = 0, f16 = 0, tf32 = 0;

    TensorFlops& operator+=(const TensorFlops& o);
    bool operator==(const TensorFlops&) const = default;
    bool any() const { return bf16 + f16 + tf32 > 0; }
};

struct TrafficStats {
    // False when the kernel was not compiled for counting (see memwall_cuda_emu_sources);
    // then only atomics would have been seen, and traffic_counters refuses the stats.
    bool counted = false;
    std::uint64_t launches = 0;
    AccessCounts load, store, atomic;
    // Sectors touched at least once per launch (summed over launches).
    std::uint64_t distinct_sectors = 0;
    std::uint64_t distinct_sectors_read = 0;     // by loads or atomics
    std::uint64_t distinct_sectors_written = 0;  // by stores or atomics
    // L2 model: 32 bytes per sector miss; 32 bytes per dirty sector written back, counting the
    // sectors still dirty at the end of the launch.
    std::uint64_t dram_read_bytes = 0;
    std::uint64_t dram_write_bytes = 0;
    // Shared memory: what the threads requested, apart from the global counts above.
    SharedTraffic shared;
    // Mapped pinned host memory (cudaHostAlloc): apart from global memory, and from the L1, L2
    // and DRAM figures.
    HostTraffic host;
    // Tensor-core work, apart from traffic: the launch's counts of it are as exact.
    TensorFlops tensor;

    // Sums another launch's traffic (counted only if both were).
    TrafficStats& operator+=(const TrafficStats& o);
    bool operator==(const TrafficStats&) const = default;
};

// The traffic of the last launch made by this thread.
TrafficStats last_traffic();

namespace detail {
// Called at the end of each launch: records it as the last and adds it to the open scopes.
void publish_traffic(const TrafficStats& s);
// The outermost open TrafficScope of this thread, as a number no other scope had; 0 when none.
// The L2 model starts cold at a launch outside any scope and at a scope's first launch, and stays
// warm between the launches of one scope (recorder.cpp).
std::uint64_t scope_generation();
}  // namespace detail

// Sums the traffic of every launch made by this thread while it lives (scopes may nest).
class TrafficScope {
  public:
    TrafficScope();
    ~TrafficScope();
    TrafficScope(const TrafficScope&) = delete;
    TrafficScope& operator=(const TrafficScope&) = delete;

    const TrafficStats& stats() const { return stats_; }

  private:
    friend void detail::publish_traffic(const TrafficStats& s);
    friend std::uint64_t detail::scope_generation();
    TrafficStats stats_;
    std::uint64_t generation_ = 0;
};

// The stats as counters with source emu, named by the CUPTI metric they estimate where one
// exists (dram__bytes_read.sum, lts__t_bytes.sum, l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,
// sm__sass_data_bytes_mem_shared_op_ld.sum, ...) and emu.* otherwise; the emu.host_* counters
// only when the kernels touched mapped host memory, flops.{bf16,f16,tf32}_tensor only when they
// ran mma.sync. Throws std::invalid_argument when the stats
// were not counted.
std::vector<Counter> traffic_counters(const TrafficStats& s);

}  // namespace memwall::emu
