// What the CUDA conv kernels share beyond the kit: the shape (device_case.hpp) and 64-bit offsets
// into the NCHW input and output. Sizes of one plane fit an int (validate); whole tensors may not.
#pragma once

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "kernels/conv/cuda/device_case.hpp"
#include "kernels/kit/cuda/common.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

// The first element of input plane (n, c).
__device__ __forceinline__ long long input_plane(const Shape& s, long long n, int c) {
    return (n * s.c + c) * (static_cast<long long>(s.h) * s.w);
}

// The first element of output plane (n, k).
__device__ __forceinline__ long long output_plane(const Shape& s, long long n, int k) {
    return (n * s.k + k) * (static_cast<long long>(s.p) * s.q);
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
