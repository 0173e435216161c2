// Kernels that read and write mapped pinned host memory (zero-copy) through its device pointer:
// their host-memory sectors are known exactly, aligned and misaligned.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

// out[i] = 2 * host[i], a float per thread: a warp reads 128 contiguous bytes of host memory.
__global__ void read_host_kernel(const float* host, float* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = 2.0f * host[i];
}

// host[i] = device[i] + 1: stores to host memory.
__global__ void write_host_kernel(const float* device, float* host, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) host[i] = device[i] + 1.0f;
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
