// What the CUDA attention kernels (naive.cuh, flash.cuh, decode_splitkv.cuh) share: warp
// reductions, the causal mask, and the element types they load and store. Every kernel is a
// template over T, the type of Q, K, V and O in global memory (float or __nv_bfloat16);
// arithmetic, softmax and the workspaces are fp32 for both.
#pragma once

#include <cmath>
#include <cstddef>

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "kernels/attention/cuda/device_case.hpp"
#include "cuda_emu/cuda.hpp"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

constexpr unsigned full_mask = 0xffffffffu;
constexpr int warp_size = 32;

__device__ __forceinline__ float warp_max(float v) {
    for (int offset = warp_size / 2; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_xor_sync(full_mask, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = warp_size / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(full_mask, v, offset);
    return v;
}

// Keys 0 .. visible_keys(s, i) - 1 are visible to query row i.
__device__ __forceinline__ int visible_keys(const Shape& s, int i) {
    if (!s.causal) return s.seq_k;
    const int n = i + s.seq_k - s.seq_q + 1;
    return n < 0 ? 0 : (n > s.seq_k ? s.seq_k : n);
}

__device__ __forceinline__ int thread_index() { return static_cast<int>(threadIdx.x); }
__device__ __forceinline__ int block_threads() { return static_cast<int>(blockDim.x); }

// An element as fp32. By value: the load from global memory is the caller's (and so counted
// in emulation). Host code converts with the same functions (attention_forward.cu).
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

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
