// Host buffers of the CPU kernels, placed the same way in every allocation. A memory-bound
// kernel's time depends on where its arrays land relative to each other (4 KiB aliasing of
// loads and stores, cache-set conflicts of physical pages): with malloc's placement, the naive
// attention kernel ran 20-25% slower or faster from one allocation to the next, and stayed so
// while the addresses were reused, which no number of repetitions averages out quickly and two
// builds compared side by side draw differently. Large buffers are therefore 2 MiB aligned and
// advised to transparent huge pages (so virtual and physical bits agree up to 2 MiB), then
// shifted by a fixed number of cache lines per slot, so the arrays a kernel streams together
// (each given its own slot: attention's q, k, v, o and workspace) never share their address bits
// below 4 KiB.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <vector>

namespace memwall::kit {

template <class T>
class PlacedAllocator {
  public:
    using value_type = T;
    static constexpr std::size_t kLarge = std::size_t{1} << 20;  // smaller buffers: plain new
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;
    static constexpr std::size_t kShift = 9 * 64;  // per slot: an odd number of lines
    static constexpr std::size_t kSlots = 7;       // 6 shifts stay below 4 KiB

    explicit PlacedAllocator(std::size_t slot = 0) : offset_(slot * kShift) {
        if (slot >= kSlots) throw std::invalid_argument("PlacedAllocator: slots are 0 to 6");
    }
    template <class U>
    PlacedAllocator(const PlacedAllocator<U>& other) : offset_(other.offset()) {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kLarge) return static_cast<T*>(::operator new (bytes, std::align_val_t{64}));
        const std::size_t reserved = (bytes + offset_ + kHugePage - 1) / kHugePage * kHugePage;
        void* base = std::aligned_alloc(kHugePage, reserved);
        if (!base) throw std::bad_alloc();
        madvise(base, reserved, MADV_HUGEPAGE);  // advice: without huge pages the offsets still hold
        return reinterpret_cast<T*>(static_cast<char*>(base) + offset_);
    }
    void deallocate(T* p, std::size_t n) {
        if (n * sizeof(T) < kLarge) {
            ::operator delete (p, std::align_val_t{64});
            return;
        }
        std::free(reinterpret_cast<char*>(p) - offset_);
    }

    std::size_t offset() const { return offset_; }
    template <class U>
    bool operator==(const PlacedAllocator<U>& other) const {
        return offset_ == other.offset();
    }

  private:
    std::size_t offset_;
};

// Floats placed by slot: PlacedBuffer(n, PlacedAllocator<float>(slot)).
using PlacedBuffer = std::vector<float, PlacedAllocator<float>>;

}  // namespace memwall::kit
