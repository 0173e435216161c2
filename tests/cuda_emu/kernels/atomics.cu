#include "tests/cuda_emu/kernels/atomics.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void apply_atomics(const LaunchConfig& c, const int* values, const AtomicTargets& targets) {
    cuda::launch(c, apply_atomics_kernel, values, targets);
}

void locked_increment(const LaunchConfig& c, int* lock, int* counter) {
    cuda::launch(c, locked_increment_kernel, lock, counter);
}

void histogram(const LaunchConfig& c, const int* values, int n, int* hist, int bins) {
    cuda::launch(c, histogram_kernel, values, n, hist, bins);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
