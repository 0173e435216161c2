// What the cuda backend's .cu files share: a CUDA error as std::runtime_error, and a device
// attribute read through it. nvcc only.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace memwall::gpu {

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(e));
}

inline int attribute(cudaDeviceAttr a, int device) {
    int v = 0;
    check(cudaDeviceGetAttribute(&v, a, device), "cudaDeviceGetAttribute");
    return v;
}

}  // namespace memwall::gpu
