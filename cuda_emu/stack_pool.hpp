// Stacks of the fibers that run CUDA threads, kept for the life of the process so that launches
// reuse them instead of mapping new ones.
#pragma once

#include <cstddef>
#include <vector>

namespace memwall::emu::detail {

struct Stack {
    void* bottom = nullptr;  // lowest usable address (a guard page lies below it)
    std::size_t size = 0;
    void* top() const { return static_cast<char*>(bottom) + size; }
};

class StackPool {
  public:
    static constexpr std::size_t kStackBytes = std::size_t{256} << 10;

    StackPool() = default;
    StackPool(const StackPool&) = delete;
    StackPool& operator=(const StackPool&) = delete;
    ~StackPool();

    // Stack i, mapped on first use. Throws std::bad_alloc when mapping fails.
    const Stack& get(std::size_t i);

  private:
    std::vector<Stack> stacks_;
};

}  // namespace memwall::emu::detail
