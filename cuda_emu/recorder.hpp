// Turns the global-memory accesses of one launch into TrafficStats: byte counts, distinct
// sectors, warp requests (coalescing), and the L1 and L2 models.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda_emu/options.hpp"
#include "cuda_emu/sector_cache.hpp"
#include "cuda_emu/traffic.hpp"

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

    // An access of `bytes` at `offset` into the arena, made at instruction address `site`.
    void record(std::uint64_t offset, std::size_t bytes, AccessKind kind, std::uintptr_t site);

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

    Request& request_for(std::uintptr_t site, AccessCounts& counts);
    void to_l2(std::uint64_t sector, AccessKind kind, AccessCounts& counts);

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

// An atomic made by the runtime's atomic functions (which the hooks do not see).
void record_atomic(const void* address, std::size_t bytes, const void* site);

}  // namespace memwall::emu::detail
