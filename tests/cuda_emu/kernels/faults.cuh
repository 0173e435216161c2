// Kernels that break CUDA's rules on purpose: the emulator must report them, not hang.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

// The lower half of the block waits at one __syncthreads, the upper half at another.
__global__ void different_barriers_kernel(int* out) {
    if (threadIdx.x < blockDim.x / 2) {
        __syncthreads();
        out[threadIdx.x] = 1;
    } else {
        __syncthreads();
        out[threadIdx.x] = 2;
    }
}

// Threads at or past n return before the barrier the others wait at. out[i] = in[i - 1]
// (in[0] for i = 0), through shared memory.
__global__ void exit_before_barrier_kernel(const float* in, float* out, int n) {
    __shared__ float s[256];
    const int t = static_cast<int>(threadIdx.x);
    const int i = static_cast<int>(blockIdx.x * blockDim.x) + t;
    if (i >= n) return;
    s[t] = in[i];
    __syncthreads();
    out[i] = t == 0 ? (i == 0 ? s[0] : in[i - 1]) : s[t - 1];
}

// Lane 0 of each warp waits in a shuffle that its other lanes never reach.
__global__ void shuffle_against_barrier_kernel(int* out) {
    int v = static_cast<int>(threadIdx.x);
    if (threadIdx.x % 32 == 0)
        v = __shfl_sync(0xffffffffu, v, 1);
    else
        __syncthreads();
    out[threadIdx.x] = v;
}

// Lanes 0-15 read lane 20, which is not in their mask.
__global__ void shuffle_outside_mask_kernel(int* out) {
    if (threadIdx.x < 16) out[threadIdx.x] = __shfl_sync(0x0000ffffu, static_cast<int>(threadIdx.x), 20);
}

// Thread 0 waits for a flag no thread sets.
__global__ void spin_on_flag_kernel(int* flag) {
    if (threadIdx.x == 0)
        while (atomicAdd(flag, 0) == 0) {}
}

__global__ void trap_in_thread_kernel(unsigned thread) {
    if (threadIdx.x == thread) __trap();
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
