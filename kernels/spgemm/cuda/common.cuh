// What the CUDA spgemm kernels share: a CSR matrix as the device holds it, a block's prefix sum
// and a block's in-place sort of a row segment by column (device functions only: the kernels
// shared by both launchers are in scan.cuh, included by device_cases.cu alone).
#pragma once

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "kernels/spgemm/cuda/device_case.hpp"
#include "kernels/kit/cuda/common.cuh"

namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

// Row i's entries are col[row_ptr[i] .. row_ptr[i + 1]).
struct DeviceCsr {
    const int* row_ptr = nullptr;
    const int* col = nullptr;
    const double* val = nullptr;
};

// Products of A's row i: the sum over its entries a_ik of nnz(B's row k).
__device__ __forceinline__ int row_products_of(const DeviceCsr& a, const int* b_row_ptr, int i) {
    const int e0 = a.row_ptr[i], e1 = a.row_ptr[i + 1];
    int p = 0;
    for (int e = e0; e < e1; ++e) {
        const int k = a.col[e];
        p += b_row_ptr[k + 1] - b_row_ptr[k];
    }
    return p;
}

// The inclusive prefix sum of `v` over the block (blockDim.x a multiple of 32), and the block's
// total in `total`. `scratch` holds 32 ints of shared memory; every thread must call it.
__device__ __forceinline__ int block_inclusive_scan(int v, int* scratch, int& total) {
    const int lane = thread_index() % kWarpSize, warp = thread_index() / kWarpSize;
    const int warps = block_threads() / kWarpSize;
    for (int d = 1; d < kWarpSize; d *= 2) {
        const int x = __shfl_up_sync(kFullMask, v, d);
        if (lane >= d) v += x;
    }
    if (lane == kWarpSize - 1) scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < warps ? scratch[lane] : 0;
        for (int d = 1; d < kWarpSize; d *= 2) {
            const int x = __shfl_up_sync(kFullMask, w, d);
            if (lane >= d) w += x;
        }
        if (lane < warps) scratch[lane] = w;
    }
    __syncthreads();
    const int before = warp > 0 ? scratch[warp - 1] : 0;
    total = scratch[warps - 1];
    __syncthreads();  // scratch is free again when this returns
    return before + v;
}

__device__ __forceinline__ void compare_exchange(int* key, double* val, int i, int j) {
    const int ki = key[i], kj = key[j];
    if (kj < ki) {
        const double vi = val[i];
        key[i] = kj;
        key[j] = ki;
        val[i] = val[j];
        val[j] = vi;
    }
}

// Sorts key[0..m) ascending, carrying val, in place (shared or global memory) with the whole
// block: a bitonic network over the next power of two whose every comparator puts the smaller
// key first (the first step of each stage compares mirrored positions), so positions at or past
// m act as +infinity and their comparators are skipped. Every thread must call it.
__device__ inline void block_sort(int* key, double* val, int m) {
    int n = 1;
    while (n < m) n *= 2;
    const int half = n / 2;
    for (int k = 2; k <= n; k *= 2) {
        for (int t = thread_index(); t < half; t += block_threads()) {
            const int i = 2 * t - (t & (k / 2 - 1));
            const int j = i ^ (k - 1);
            if (j < m) compare_exchange(key, val, i, j);
        }
        __syncthreads();
        for (int d = k / 4; d > 0; d /= 2) {
            for (int t = thread_index(); t < half; t += block_threads()) {
                const int i = 2 * t - (t & (d - 1));
                const int j = i + d;
                if (j < m) compare_exchange(key, val, i, j);
            }
            __syncthreads();
        }
    }
}

}  // namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS
