#include "cuda_emu/stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

namespace memwall::emu::detail {

namespace {
std::size_t page_bytes() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
}  // namespace

StackPool::~StackPool() {
    for (const Stack& s : stacks_) munmap(static_cast<char*>(s.bottom) - page_bytes(), s.size + page_bytes());
}

const Stack& StackPool::get(std::size_t i) {
    while (stacks_.size() <= i) {
        // A guard page below each stack turns an overflow into a crash, not silent corruption.
        const std::size_t guard = page_bytes();
        void* p = mmap(nullptr, kStackBytes + guard, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        if (mprotect(p, guard, PROT_NONE) != 0) {
            munmap(p, kStackBytes + guard);
            throw std::bad_alloc();
        }
        stacks_.push_back({static_cast<char*>(p) + guard, kStackBytes});
    }
    return stacks_[i];
}

}  // namespace memwall::emu::detail
