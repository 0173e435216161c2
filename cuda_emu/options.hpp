// How cuda-emu runs a grid: block order, barrier rule, timeout and the cache models behind its
// traffic estimates. Plain data, so launchers compiled by nvcc carry it too (and ignore it).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace memwall::emu {

// Order in which the blocks of a grid run. Shared memory persists from block to block in
// emulation; another order (plus poisoning) exposes a block that reads shared memory it never
// wrote.
enum class BlockOrder { forward, reverse, shuffled };

// What __syncthreads does once some threads of the block have returned.
// strict: an error. The CUDA programming guide requires every thread of the block to reach each
//   __syncthreads, so kernels that return early and then synchronise are not portable.
// exited_threads_arrive: exited threads count as arrived, as sm_70 and later GPUs behave.
// Warp intrinsics always follow CUDA's rule: exited lanes named in the mask are ignored.
enum class BarrierRule { strict, exited_threads_arrive };

// A set-associative LRU cache of lines of line_bytes, filled and written back in sectors of
// sector_bytes (a power of two from 32 to line_bytes, at most 8 per line; NVIDIA's are 32).
// bytes must be a multiple of line_bytes * ways; bytes = 0 disables the cache.
struct CacheConfig {
    std::size_t bytes = 0;
    std::size_t line_bytes = 128;
    std::size_t ways = 16;
    std::size_t sector_bytes = 32;
    bool operator==(const CacheConfig& o) const {  // C++17: nvcc compiles this header too
        return bytes == o.bytes && line_bytes == o.line_bytes && ways == o.ways && sector_bytes == o.sector_bytes;
    }
};

struct EmulationOptions {
    BlockOrder order = BlockOrder::forward;
    std::uint64_t seed = 0;  // of BlockOrder::shuffled
    BarrierRule barrier_rule = BarrierRule::strict;
    // Fill shared memory (static and dynamic) with 0xFF bytes, a NaN as float or double,
    // before every block.
    bool poison_shared = true;
    // Wall-time limit of the launch; it catches threads spinning on a flag that is never set.
    // Deadlocks at barriers and warp intrinsics are reported at once, without waiting.
    std::chrono::milliseconds timeout{std::chrono::minutes(5)};
    // Per block and cold at its start: global loads that hit here do not reach L2.
    CacheConfig l1{128 << 10, 128, 16, 32};
    // Cold at the launch start; its misses and write-backs are the DRAM estimate. H100: 50 MiB.
    CacheConfig l2{std::size_t{50} << 20, 128, 16, 32};
};

}  // namespace memwall::emu
