// The part of the CUDA runtime API that memwall's launchers use, for host compilers. Device
// memory comes from cuda-emu's arena, page-locked host memory from a second one (their address
// ranges are what traffic counting watches);
// everything is synchronous, so streams and events are sequential no-ops, and event times are
// emulation times, never GPU times. Global names, as in cuda_runtime.h, so one launcher source
// compiles with both; a translation unit must not include the CUDA toolkit's headers as well.
#pragma once

#if defined(__CUDA_RUNTIME_H__)
#error "cuda_emu/runtime_api.hpp emulates cuda_runtime.h: do not include both"
#endif

#include <cstddef>

#include "cuda_emu/host_waits.hpp"
#include "cuda_emu/vector_types.hpp"

// Values as in CUDA's driver_types.h.
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidResourceHandle = 400,
};
using cudaError_t = cudaError;

// cudaHostAlloc's flags, macros as in driver_types.h. Emulation has one address space (as CUDA
// has under unified addressing, every 64-bit system): every page-locked allocation is mapped,
// and its device pointer is its host pointer; the flags are checked, not needed.
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,  // the direction follows from the pointers
};

struct CUstream_st;
struct CUevent_st;
using cudaStream_t = CUstream_st*;
using cudaEvent_t = CUevent_st*;

const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);
// The last error returned by a runtime call of this thread; Get resets it, Peek does not.
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
cudaError_t cudaDeviceSynchronize();

// 256-byte aligned, filled with 0xFF bytes (NaN as float) so reads of unwritten memory show.
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
    return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFree(void* ptr);

// Page-locked host memory, mapped into the device's address space (zero-copy): page-aligned and
// filled with 0xFF bytes. Kernels' accesses to it are counted apart from global memory, as
// host-memory sectors (traffic.hpp). Flags other than the four above: cudaErrorInvalidValue.
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int flags);
template <class T>
cudaError_t cudaHostAlloc(T** ptr, std::size_t bytes, unsigned int flags) {
    return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
    return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
// ptr must be the start of a live page-locked allocation (cudaErrorInvalidValue otherwise).
cudaError_t cudaFreeHost(void* ptr);
// The device pointer of host address `host` inside a page-locked allocation: the same address.
// flags must be 0.
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags);
// Device ranges must lie inside one live allocation (cudaErrorInvalidValue otherwise).
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = nullptr);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
// Work later queued on `stream` waits for `event` (a no-op: everything has run already).
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
// A host function in stream order: called at once, as everything before it has run.
using cudaHostFn_t = void (*)(void* user_data);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
// Host wall time between two recorded events, in milliseconds.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
