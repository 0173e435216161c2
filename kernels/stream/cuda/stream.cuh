// The CUDA stream kernel: a grid-stride loop, one element per thread per step, coalesced.
#pragma once

#include "kernels/kit/cuda/common.cuh"
#include "kernels/stream/cuda/device_case.hpp"

namespace memwall::stream_cuda::MEMWALL_CUDA_NS {

__global__ void stream_kernel(Shape s, const float* x, const float* y, float* z) {
    const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < s.n; i += step) {
        switch (s.op) {
            case StreamOp::copy: z[i] = x[i]; break;
            case StreamOp::scale: z[i] = s.scalar * x[i]; break;
            case StreamOp::add: z[i] = x[i] + y[i]; break;
            case StreamOp::triad: z[i] = x[i] + s.scalar * y[i]; break;
        }
    }
}

}  // namespace memwall::stream_cuda::MEMWALL_CUDA_NS
