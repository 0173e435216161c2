// out (cols x rows) = transpose of in (rows x cols), both row-major.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

constexpr int kTransposeTile = 32;

// One thread per element: a warp reads one row segment (coalesced) and writes one column
// segment (a sector per lane).
__global__ void transpose_naive_kernel(const float* in, float* out, int rows, int cols) {
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int r = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

// Through a shared tile (padded against bank conflicts), so that writes are coalesced too.
// Blocks of 32 x 8 threads move 32 x 32 tiles.
__global__ void transpose_tiled_kernel(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[kTransposeTile][kTransposeTile + 1];
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int step = static_cast<int>(blockDim.y);
    int c = static_cast<int>(blockIdx.x) * kTransposeTile + tx;
    int r = static_cast<int>(blockIdx.y) * kTransposeTile + ty;
    for (int j = 0; j < kTransposeTile; j += step)
        if (r + j < rows && c < cols) tile[ty + j][tx] = in[(r + j) * cols + c];
    __syncthreads();
    c = static_cast<int>(blockIdx.y) * kTransposeTile + tx;
    r = static_cast<int>(blockIdx.x) * kTransposeTile + ty;
    for (int j = 0; j < kTransposeTile; j += step)
        if (r + j < cols && c < rows) out[(r + j) * rows + c] = tile[tx][ty + j];
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
