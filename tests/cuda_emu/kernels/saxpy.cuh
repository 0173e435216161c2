// y = a x + y, and a float to bfloat16 conversion: kernels with exactly known traffic.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

template <class T>
__global__ void saxpy_kernel(T a, const T* x, T* y, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void to_bfloat16_kernel(const float* in, __nv_bfloat16* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = __float2bfloat16(in[i]);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
