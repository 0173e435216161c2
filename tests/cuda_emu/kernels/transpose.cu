#include "tests/cuda_emu/kernels/transpose.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void transpose_naive(const LaunchConfig& c, const float* in, float* out, int rows, int cols) {
    cuda::launch(c, transpose_naive_kernel, in, out, rows, cols);
}

void transpose_tiled(const LaunchConfig& c, const float* in, float* out, int rows, int cols) {
    cuda::launch(c, transpose_tiled_kernel, in, out, rows, cols);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
