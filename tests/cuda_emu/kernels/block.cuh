// Block-level kernels: a shared-memory reduction, barrier votes, and the two ways shared
// memory and block order show through.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

// partial[b] = sum of block b's Block elements of x (zero past n): tree with __syncthreads.
template <int Block>
__global__ void block_sum_kernel(const float* x, float* partial, int n) {
    __shared__ float s[Block];
    const int t = static_cast<int>(threadIdx.x);
    const int i = static_cast<int>(blockIdx.x) * Block + t;
    s[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = Block / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

// out[3b .. 3b+2] = __syncthreads_count, _and, _or of block b's predicates.
__global__ void barrier_votes_kernel(const int* predicates, int* out) {
    const int p = predicates[blockIdx.x * blockDim.x + threadIdx.x];
    const int count = __syncthreads_count(p);
    const int all = __syncthreads_and(p);
    const int any = __syncthreads_or(p);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = count;
        out[3 * blockIdx.x + 1] = all;
        out[3 * blockIdx.x + 2] = any;
    }
}

// order[k] = the k-th block to run.
__global__ void block_ticket_kernel(unsigned* next, unsigned* order) {
    if (threadIdx.x == 0) order[atomicAdd(next, 1u)] = blockIdx.x;
}

// A bug on purpose: out[b] = a shared value block b reads before writing it, i.e. whatever
// an earlier block left there.
__global__ void read_before_write_kernel(float* out) {
    __shared__ float last;
    if (threadIdx.x == 0) {
        out[blockIdx.x] = last;
        last = static_cast<float>(blockIdx.x);
    }
}

// Reverses each block's chunk of in through dynamic shared memory of blockDim.x elements.
template <class T>
__global__ void reverse_chunks_kernel(const T* in, T* out, int n) {
    MEMWALL_DYNAMIC_SHARED(T, s);
    const int t = static_cast<int>(threadIdx.x);
    const int base = static_cast<int>(blockIdx.x * blockDim.x);
    const int m = min(static_cast<int>(blockDim.x), n - base);
    if (t < m) s[t] = in[base + t];
    __syncthreads();
    if (t < m) out[base + t] = s[m - 1 - t];
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
