// Shared-memory traffic: a tile staged in static shared memory, and a block histogram in
// dynamic shared memory built with atomicAdd and an election with atomicCAS. Each thread reads
// back only elements other threads wrote, so the compiler cannot forward a value it stored and
// every access in the source is one access in the counts. rotate_tile_kernel is no template:
// GCC drops the section attribute of static locals in function templates (its bug 70435), so
// a template kernel's static __shared__ variables escape cuda-emu's shared-memory range.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

constexpr int kRotateTile = 64;

// Blocks of kRotateTile threads; with base = kRotateTile * block and 0 < shift < kRotateTile,
// out[base + t] = in[base + (t + shift) % kRotateTile] + in[base + kRotateTile - 1 - t].
__global__ void rotate_tile_kernel(const double* in, double* out, int shift) {
    __shared__ double tile[kRotateTile];
    const int t = static_cast<int>(threadIdx.x);
    const int base = static_cast<int>(blockIdx.x) * kRotateTile;
    tile[t] = in[base + t];
    __syncthreads();
    out[base + t] = tile[(t + shift) % kRotateTile] + tile[kRotateTile - 1 - t];
}

// Dynamic shared memory of bins + 1 unsigned: the block's counts of values[i] % bins, then a
// flag. hist[b] += the block's count of b (b < bins <= blockDim.x), and hist[bins] += 1 per
// block: the one thread whose atomicCAS finds the flag clear.
__global__ void shared_histogram_kernel(const int* values, int n, unsigned* hist, int bins) {
    MEMWALL_DYNAMIC_SHARED(unsigned, local);
    const int t = static_cast<int>(threadIdx.x);
    if (t < bins) local[t] = 0;
    if (t == 0) local[bins] = 0;
    __syncthreads();
    const int i = static_cast<int>(blockIdx.x * blockDim.x) + t;
    if (i < n) atomicAdd(&local[values[i] % bins], 1u);
    if (atomicCAS(&local[bins], 0u, 1u) == 0u) atomicAdd(&hist[bins], 1u);
    __syncthreads();
    if (t < bins) atomicAdd(&hist[t], local[t]);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
