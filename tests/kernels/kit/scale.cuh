// A toy CUDA kernel for the kit's tests: out[i] = 2 * in[i], one thread per element.
#pragma once

#include "kernels/kit/cuda/common.cuh"

namespace memwall::kit_test::MEMWALL_CUDA_NS {

template <class T>
__global__ void scale_kernel(int n, const T* in, T* out) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = kit::MEMWALL_CUDA_NS::from_float<T>(2.0f * kit::MEMWALL_CUDA_NS::to_float(in[i]));
}

}  // namespace memwall::kit_test::MEMWALL_CUDA_NS
