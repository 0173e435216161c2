// Turns the memory accesses of one launch into TrafficStats: for global memory byte counts,
// distinct sectors, warp requests (coalescing), and the L1 and L2 models; for shared memory
// byte counts and warp requests; for mapped host memory byte counts, warp requests and their
// sectors.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda_emu/arena.hpp"
#include "cuda_emu/options.hpp"
#include "cuda_emu/sector_cache.hpp"
#include "cuda_emu/traffic.hpp"

// The linker's bounds of the section that holds every static __shared__ variable (null when
// the program has none).
extern "C" unsigned char __start_memwall_emu_shared[] __attribute__((weak));
extern "C" unsigned char __stop_memwall_emu_shared[] __attribute__((weak));

namespace memwall::emu::detail {

enum class AccessKind : std::uint8_t { load, store, atomic };

class Recorder {
  public:
    // arena_extent: bytes of the arena in use; threads: per block.
    Recorder(const EmulationOptions& options, std::size_t arena_extent, unsigned threads);

    void begin_block();
    // The thread whose accesses follow (its linear index in the block).
    void set_thread(unsigned linear) { thread_ = linear; }
    // All lanes of the block, or of one warp, met: later accesses start new warp requests.
    void converge_block();
    void converge_warp(unsigned warp);

    // An access of `bytes` at `offset` into the arena, made at instruction address `site`; a
    // load that skips L1 (cp.async.cg) with through_l1 false.
    void record(std::uint64_t offset, std::size_t bytes, AccessKind kind, std::uintptr_t site, bool through_l1 = true);
    // An access of `bytes` to shared memory, made at instruction address `site`.
    void record_shared(std::size_t bytes, AccessKind kind, std::uintptr_t site);
    // An access of `bytes` at `offset` into mapped host memory, made at `site`.
    void record_host(std::uint64_t offset, std::size_t bytes, AccessKind kind, std::uintptr_t site);

    // FLOPs of the launch's warp matrix instructions.
    TensorFlops& tensor() { return stats_.tensor; }

    // The launch's stats (not yet marked counted), with the L2's dirty sectors written back.
    TrafficStats finish();

  private:
    struct Request {
        std::vector<std::uint64_t> sectors;
    };
    // The warp requests of one access site: the n-th is the lanes' n-th execution of it.
    struct Site {
        std::uintptr_t address = 0;
        std::uint32_t used = 0;
        std::vector<Request> requests;
    };
    struct LaneSite {
        std::uintptr_t address = 0;
        std::uint32_t executions = 0;
    };

    // The warp request the current thread's access at `site` belongs to; counts the requests
    // it opens in `requests`.
    Request& request_for(std::uintptr_t site, std::uint64_t& requests);
    void to_l2(std::uint64_t sector, AccessKind kind, AccessCounts& counts, bool through_l1);

    TrafficStats stats_;
    SectorCache l1_;
    SectorCache& l2_;
    std::vector<std::uint64_t> read_, written_;      // bitmaps of the sectors of the arena in use
    std::vector<std::vector<Site>> warp_sites_;      // per warp
    std::vector<std::vector<LaneSite>> lane_sites_;  // per thread
    unsigned thread_ = 0;
};

// The recorder of the launch this thread runs, when it counts traffic.
extern constinit thread_local Recorder* active_recorder;
// Set by every access hook: whether instrumented code ran on this thread.
extern constinit thread_local bool hooks_called;
// The running block's dynamic shared memory (dynamic_shared is also declared in device.hpp for
// kernels); null and 0 outside launches.
extern constinit thread_local unsigned char* dynamic_shared;
extern constinit thread_local std::size_t dynamic_shared_bytes;

// Counts an access made at `site` by the running launch, if it counts traffic and the access
// falls inside the arena (global memory), mapped host memory or shared memory. The access hooks
// call it for every load and store: an arena access costs one range check, a host-memory access
// two, any other four. through_l1 false: a global load that skips the L1 model.
inline void record_access(const volatile void* p, std::size_t bytes, AccessKind kind, std::uintptr_t site,
                          bool through_l1 = true) {
    Recorder* r = active_recorder;
    if (!r) return;
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = arena_begin.load(std::memory_order_relaxed);
    if (a - begin < arena_reserved.load(std::memory_order_relaxed)) {
        r->record(a - begin, bytes, kind, site, through_l1);
        return;
    }
    const std::uintptr_t host = host_arena_begin.load(std::memory_order_relaxed);
    if (a - host < host_arena_reserved.load(std::memory_order_relaxed)) {
        r->record_host(a - host, bytes, kind, site);
        return;
    }
    const auto shared = reinterpret_cast<std::uintptr_t>(__start_memwall_emu_shared);
    const auto shared_end = reinterpret_cast<std::uintptr_t>(__stop_memwall_emu_shared);
    if (a - shared < shared_end - shared || a - reinterpret_cast<std::uintptr_t>(dynamic_shared) < dynamic_shared_bytes)
        r->record_shared(bytes, kind, site);
}

// Whether [p, p + bytes) lies in the running block's shared memory: a static __shared__
// variable or its dynamic shared memory.
inline bool in_shared_memory(const void* p, std::size_t bytes) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    const auto inside = [&](const void* begin, std::size_t size) {
        const auto b = reinterpret_cast<std::uintptr_t>(begin);
        return begin != nullptr && a >= b && a - b <= size && bytes <= size - (a - b);
    };
    return inside(__start_memwall_emu_shared,
                  static_cast<std::size_t>(__stop_memwall_emu_shared - __start_memwall_emu_shared)) ||
           inside(dynamic_shared, dynamic_shared_bytes);
}

// An atomic made by the runtime's atomic functions (which the hooks do not see).
inline void record_atomic(const void* address, std::size_t bytes, const void* site) {
    record_access(address, bytes, AccessKind::atomic, reinterpret_cast<std::uintptr_t>(site));
}

}  // namespace memwall::emu::detail
