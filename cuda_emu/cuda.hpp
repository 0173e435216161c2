// What a kernel source (.cuh) and its launcher (.cu) include: CUDA itself under nvcc, its
// emulation under a host compiler, and memwall::cuda::launch in both.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define MEMWALL_DYNAMIC_SHARED(T, name)                                      \
    extern __shared__ __align__(16) unsigned char memwall_dynamic_shared_[]; \
    T* name = reinterpret_cast<T*>(memwall_dynamic_shared_)
#else
#include "cuda_emu/device.hpp"
#include "cuda_emu/runtime_api.hpp"
#endif

#include "cuda_emu/bfloat16.hpp"
#include "cuda_emu/launch.hpp"

// The namespace for a .cuh's kernels and its .cu's launchers (`namespace my::MEMWALL_CUDA_NS`),
// so that one program can link both builds of them: nvcc's kernel stubs and the emulated
// kernels would otherwise have the same symbols.
#if defined(__CUDACC__)
#define MEMWALL_CUDA_NS cuda_gpu
#else
#define MEMWALL_CUDA_NS cuda_emu
#endif
