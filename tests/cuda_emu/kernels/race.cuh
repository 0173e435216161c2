// A block sum whose tree reduction has, or lacks (a data race), the barrier between steps.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

template <bool Synchronised, int Block>
__global__ void tree_sum_kernel(const float* x, float* out) {
    __shared__ float s[Block];
    const int t = static_cast<int>(threadIdx.x);
    s[t] = x[static_cast<int>(blockIdx.x) * Block + t];
    __syncthreads();
    for (int stride = Block / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        if (Synchronised) __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
