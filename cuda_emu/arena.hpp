// cuda-emu's device memory: one reserved address range that cudaMalloc carves up, so that the
// traffic hooks tell a global-memory access by a single range check.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace memwall::emu::detail {

// The reserved range, read by the access hooks (both 0 until the first allocation).
extern std::atomic<std::uintptr_t> arena_begin;
extern std::atomic<std::size_t> arena_reserved;

class Arena {
public:
    static Arena& instance();

    // 256-byte aligned and filled with 0xFF bytes; nullptr when the range is exhausted.
    void* allocate(std::size_t bytes);
    // False when p is not the start of a live allocation.
    bool release(void* p);
    // Whether [p, p + bytes) lies inside one live allocation.
    bool holds(const void* p, std::size_t bytes) const;
    // Bytes from the start of the range to the end of the highest allocation ever made.
    std::size_t extent() const;

private:
    Arena() = default;
    void reserve();

    mutable std::mutex mutex_;
    unsigned char* base_ = nullptr;
    std::size_t committed_ = 0;  // readable and writable from base_
    std::size_t extent_ = 0;
    std::map<std::size_t, std::size_t> free_;  // offset -> size, below extent_
    std::map<std::size_t, std::size_t> live_;  // offset -> bytes requested
};

}  // namespace memwall::emu::detail
