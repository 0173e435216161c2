#include "cuda_emu/arena.hpp"

#include <sys/mman.h>

#include <cstring>
#include <iterator>
#include <new>

namespace memwall::emu::detail {

std::atomic<std::uintptr_t> arena_begin{0};
std::atomic<std::size_t> arena_reserved{0};
std::atomic<std::uintptr_t> host_arena_begin{0};
std::atomic<std::size_t> host_arena_reserved{0};

namespace {
// Address space only: pages are committed as allocations reach them.
constexpr std::size_t kReserve = std::size_t{16} << 30;
constexpr std::size_t kCommitStep = std::size_t{64} << 20;
}  // namespace

Arena& Arena::instance() {
    static Arena arena(arena_begin, arena_reserved, 256);
    return arena;
}

Arena& Arena::host() {
    static Arena arena(host_arena_begin, host_arena_reserved, 4096);
    return arena;
}

std::size_t Arena::rounded(std::size_t bytes) const {
    return (bytes == 0 ? 1 : bytes + alignment_ - 1) / alignment_ * alignment_;
}

void Arena::reserve() {
    void* p = mmap(nullptr, kReserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<unsigned char*>(p);
    reserved_.store(kReserve, std::memory_order_relaxed);
    begin_.store(reinterpret_cast<std::uintptr_t>(p), std::memory_order_release);
}

void* Arena::allocate(std::size_t bytes) {
    if (bytes > kReserve) return nullptr;
    const std::size_t size = rounded(bytes);
    std::lock_guard lock(mutex_);
    if (!base_) reserve();
    std::size_t offset = extent_;
    auto fit = free_.begin();
    while (fit != free_.end() && fit->second < size) ++fit;
    if (fit != free_.end()) {
        offset = fit->first;
        if (fit->second > size) free_.emplace(offset + size, fit->second - size);
        free_.erase(fit);
    } else {
        if (size > kReserve - extent_) return nullptr;
        if (extent_ + size > committed_) {
            const std::size_t want = (extent_ + size + kCommitStep - 1) / kCommitStep * kCommitStep;
            const std::size_t commit = want < kReserve ? want : kReserve;
            if (mprotect(base_ + committed_, commit - committed_, PROT_READ | PROT_WRITE) != 0) return nullptr;
            committed_ = commit;
        }
        extent_ += size;
    }
    live_.emplace(offset, bytes);
    std::memset(base_ + offset, 0xff, size);
    return base_ + offset;
}

bool Arena::release(void* p) {
    std::lock_guard lock(mutex_);
    if (!base_ || p < base_) return false;
    auto it = live_.find(static_cast<std::size_t>(static_cast<unsigned char*>(p) - base_));
    if (it == live_.end()) return false;
    std::size_t offset = it->first, size = rounded(it->second);
    live_.erase(it);
    // Merge with free neighbours so the arena does not fragment.
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && next->first == offset + size) {
        size += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == offset) {
            offset = prev->first;
            size += prev->second;
            free_.erase(prev);
        }
    }
    free_.emplace(offset, size);
    return true;
}

bool Arena::holds(const void* p, std::size_t bytes) const {
    std::lock_guard lock(mutex_);
    const auto* c = static_cast<const unsigned char*>(p);
    if (!base_ || c < base_ || c >= base_ + extent_) return false;
    const auto offset = static_cast<std::size_t>(c - base_);
    auto it = live_.upper_bound(offset);
    if (it == live_.begin()) return false;
    --it;
    return offset - it->first <= it->second && bytes <= it->second - (offset - it->first);
}

std::size_t Arena::extent() const {
    std::lock_guard lock(mutex_);
    return extent_;
}

}  // namespace memwall::emu::detail
