// Atomics written with std::atomic_ref, which reach cuda-emu through ThreadSanitizer's atomic
// hooks rather than its atomic functions. Emulation only: device code has cuda::atomic_ref.
#include <atomic>

#include "cuda_emu/cuda.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

namespace {

__global__ void count_with_atomic_ref_kernel(int* counter, int* flag, int* seen) {
    std::atomic_ref<int>(*counter).fetch_add(1, std::memory_order_relaxed);
    std::atomic_ref<int>(*flag).store(1, std::memory_order_relaxed);
    seen[threadIdx.x] = std::atomic_ref<int>(*counter).load(std::memory_order_relaxed);
}

}  // namespace

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void count_with_atomic_ref(const LaunchConfig& c, int* counter, int* flag, int* seen) {
    cuda::launch(c, count_with_atomic_ref_kernel, counter, flag, seen);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
