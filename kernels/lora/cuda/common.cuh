// What the CUDA lora kernels share beyond the kit: a warp's read of one word of the dropout mask.
#pragma once

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "kernels/lora/cuda/device_case.hpp"
#include "kernels/kit/cuda/common.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

// Mask word `word` of a token's row, loaded once by lane 0 and given to the whole warp (every
// lane must call it): lane l then keeps element 32 * word + l when bit l is set.
__device__ __forceinline__ unsigned mask_word(const unsigned* row_mask, int word, int lane) {
    unsigned bits = 0;
    if (lane == 0) bits = row_mask[word];
    return __shfl_sync(kFullMask, bits, 0);
}

// 1 where the lane's element is kept, 0 where dropped: multiplying by it (rather than skipping
// the load) reads every element of X once, as a GPU's sectors would anyway.
__device__ __forceinline__ float kept(unsigned bits, int lane) { return static_cast<float>((bits >> lane) & 1u); }

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
