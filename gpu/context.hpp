// The CUDA context the cuda backend's work runs in, for CUPTI's range profiler (which takes a
// CUcontext), without a link to the driver library: cudart finds cuCtxGetCurrent in the driver it
// loaded. Built by nvcc (runtime.cu) when CUDA is enabled; C++17 and free of CUDA headers.
#pragma once

namespace memwall::gpu {

// The current device's primary context (made current first), as a CUcontext. Throws
// std::runtime_error naming the call that failed.
void* current_context();
// The current CUDA device's index.
int current_device();
// Waits for the device's work (cudaDeviceSynchronize); throws on a CUDA error.
void synchronize();

}  // namespace memwall::gpu
