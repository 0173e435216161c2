// What CUDA kernels of every family share, for nvcc and for cuda-emu alike: the warp size and
// full mask, warp reductions, thread indices as ints, and the element types kernels load and
// store (float or __nv_bfloat16; arithmetic goes through float).
#pragma once

#include <cmath>
#include <cstddef>

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "cuda_emu/cuda.hpp"

namespace memwall::kit::MEMWALL_CUDA_NS {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpSize = 32;

__device__ __forceinline__ float warp_max(float v) {
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(kFullMask, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullMask, v, offset);
    return v;
}

// A launch of `threads` per block with `shared` bytes of dynamic shared memory; `emu` sets
// cuda-emu's block order, barrier rule and cache models (unused by a GPU).
inline cuda::LaunchConfig launch_config(dim3 grid, int threads, std::size_t shared,
                                        const emu::EmulationOptions& options) {
    cuda::LaunchConfig c;
    c.grid = grid;
    c.block = dim3(static_cast<unsigned>(threads));
    c.dynamic_shared = shared;
    c.emu = options;
    return c;
}

__device__ __forceinline__ int thread_index() { return static_cast<int>(threadIdx.x); }
__device__ __forceinline__ int block_threads() { return static_cast<int>(blockDim.x); }

// An element as fp32. By value: the load from global memory is the caller's (and so counted
// in emulation). Host code converts with the same functions (device_array.cuh).
__host__ __device__ __forceinline__ float to_float(float x) { return x; }
__host__ __device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }

// An fp32 value as the element type T, rounded to nearest even.
template <class T>
__host__ __device__ __forceinline__ T from_float(float x);
template <>
__host__ __device__ __forceinline__ float from_float<float>(float x) {
    return x;
}
template <>
__host__ __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
    return __float2bfloat16_rn(x);
}

}  // namespace memwall::kit::MEMWALL_CUDA_NS
