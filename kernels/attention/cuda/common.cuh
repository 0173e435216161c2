// What the CUDA attention kernels (naive.cuh, flash.cuh, decode_splitkv.cuh) share beyond the
// kit's warp reductions and element types: the causal mask. Every kernel is a template over T,
// the type of Q, K, V and O in global memory (float or __nv_bfloat16); arithmetic, softmax and
// the workspaces are fp32 for both.
#pragma once

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/kit/cuda/common.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

// Keys 0 .. visible_keys(s, i) - 1 are visible to query row i.
__device__ __forceinline__ int visible_keys(const Shape& s, int i) {
    if (!s.causal) return s.seq_k;
    const int n = i + s.seq_k - s.seq_q + 1;
    return n < 0 ? 0 : (n > s.seq_k ? s.seq_k : n);
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
