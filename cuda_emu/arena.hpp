// cuda-emu's device memory, and its mapped pinned host memory: one reserved address range each
// that cudaMalloc (cudaHostAlloc) carves up, so that the traffic hooks tell a global-memory (a
// host-memory) access by a single range check.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace memwall::emu::detail {

// The reserved ranges, read by the access hooks (both 0 until the first allocation): device
// memory, and mapped pinned host memory.
extern std::atomic<std::uintptr_t> arena_begin;
extern std::atomic<std::size_t> arena_reserved;
extern std::atomic<std::uintptr_t> host_arena_begin;
extern std::atomic<std::size_t> host_arena_reserved;

class Arena {
  public:
    // Device memory (cudaMalloc): 256-byte aligned, CUDA's guarantee.
    static Arena& instance();
    // Mapped pinned host memory (cudaHostAlloc, cudaMallocHost): page-aligned, as the driver
    // gives it. Apart from device memory so that kernels' accesses to it count apart.
    static Arena& host();

    // Aligned as above and filled with 0xFF bytes; nullptr when the range is exhausted.
    void* allocate(std::size_t bytes);
    // False when p is not the start of a live allocation.
    bool release(void* p);
    // Whether [p, p + bytes) lies inside one live allocation.
    bool holds(const void* p, std::size_t bytes) const;
    // Bytes from the start of the range to the end of the highest allocation ever made.
    std::size_t extent() const;

  private:
    Arena(std::atomic<std::uintptr_t>& begin, std::atomic<std::size_t>& reserved, std::size_t alignment)
        : begin_(begin), reserved_(reserved), alignment_(alignment) {}
    void reserve();
    std::size_t rounded(std::size_t bytes) const;

    std::atomic<std::uintptr_t>& begin_;
    std::atomic<std::size_t>& reserved_;
    const std::size_t alignment_;

    mutable std::mutex mutex_;
    unsigned char* base_ = nullptr;
    std::size_t committed_ = 0;  // readable and writable from base_
    std::size_t extent_ = 0;
    std::map<std::size_t, std::size_t> free_;  // offset -> size, below extent_
    std::map<std::size_t, std::size_t> live_;  // offset -> bytes requested
};

}  // namespace memwall::emu::detail
