#include "tests/cuda_emu/kernels/shared.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

static_assert(kRotateTile == kRotateTileThreads);

void rotate_tile(const LaunchConfig& c, const double* in, double* out, int shift) {
    cuda::launch(c, rotate_tile_kernel, in, out, shift);
}

void shared_histogram(const LaunchConfig& c, const int* values, int n, unsigned* hist, int bins) {
    cuda::launch(c, shared_histogram_kernel, values, n, hist, bins);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
