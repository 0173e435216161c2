#include "cuda_emu/runtime_api.hpp"

#include <chrono>
#include <cstring>

#include "cuda_emu/arena.hpp"

struct CUstream_st {};

struct CUevent_st {
    std::chrono::steady_clock::time_point at;
    bool recorded = false;
};

namespace {

using memwall::emu::detail::Arena;

thread_local cudaError_t last_error = cudaSuccess;
thread_local unsigned long long waits = 0;

cudaError_t result(cudaError_t e) {
    if (e != cudaSuccess) last_error = e;
    return e;
}

bool on_device(const void* p, std::size_t bytes) { return Arena::instance().holds(p, bytes); }

// A call that would make the host wait for the device (memwall::emu::host_waits).
cudaError_t waited(cudaError_t e) {
    ++waits;
    return e;
}

}  // namespace

unsigned long long memwall::emu::host_waits() { return waits; }

const char* cudaGetErrorName(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
        case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
        case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
        case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
        case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    }
    return "unrecognized error code";
}

const char* cudaGetErrorString(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorInvalidDevicePointer: return "invalid device pointer";
        case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
        case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    }
    return "unrecognized error code";
}

cudaError_t cudaGetLastError() {
    const cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError() { return last_error; }

cudaError_t cudaDeviceSynchronize() { return waited(cudaSuccess); }

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
    if (!ptr) return result(cudaErrorInvalidValue);
    *ptr = Arena::instance().allocate(bytes);
    return *ptr ? cudaSuccess : result(cudaErrorMemoryAllocation);
}

cudaError_t cudaFree(void* ptr) {
    if (!ptr) return cudaSuccess;
    return waited(Arena::instance().release(ptr) ? cudaSuccess : result(cudaErrorInvalidDevicePointer));
}

cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int flags) {
    constexpr unsigned all = cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
    if (!ptr || (flags & ~all) != 0) return result(cudaErrorInvalidValue);
    *ptr = Arena::host().allocate(bytes);
    return *ptr ? cudaSuccess : result(cudaErrorMemoryAllocation);
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) { return cudaHostAlloc(ptr, bytes, cudaHostAllocDefault); }

cudaError_t cudaFreeHost(void* ptr) {
    if (!ptr) return cudaSuccess;
    return Arena::host().release(ptr) ? cudaSuccess : result(cudaErrorInvalidValue);
}

cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags) {
    if (!device || flags != 0 || !Arena::host().holds(host, 1)) return result(cudaErrorInvalidValue);
    *device = host;
    return cudaSuccess;
}

namespace {

// The copy itself, which every variant of cudaMemcpy makes.
cudaError_t copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src) return result(cudaErrorInvalidValue);
    bool ok = true;
    switch (kind) {
        case cudaMemcpyHostToHost:
        case cudaMemcpyDefault: break;
        case cudaMemcpyHostToDevice: ok = on_device(dst, bytes); break;
        case cudaMemcpyDeviceToHost: ok = on_device(src, bytes); break;
        case cudaMemcpyDeviceToDevice: ok = on_device(dst, bytes) && on_device(src, bytes); break;
        default: return result(cudaErrorInvalidMemcpyDirection);
    }
    if (!ok) return result(cudaErrorInvalidValue);
    std::memmove(dst, src, bytes);
    return cudaSuccess;
}

bool crosses(const void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    if (kind == cudaMemcpyDefault) return on_device(dst, bytes) != on_device(src, bytes);
    return kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost;
}

}  // namespace

// A synchronous copy between host and device waits for the work queued before it; one within
// the device does not (CUDA's "API synchronization behavior").
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    const bool waits = bytes > 0 && crosses(dst, src, bytes, kind);
    const cudaError_t e = copy(dst, src, bytes, kind);
    return waits ? waited(e) : e;
}

// An asynchronous copy into pageable host memory returns only once it has completed.
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
    const bool waits =
        bytes > 0 && crosses(dst, src, bytes, kind) && !on_device(dst, bytes) && !Arena::host().holds(dst, bytes);
    const cudaError_t e = copy(dst, src, bytes, kind);
    return waits ? waited(e) : e;
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) {
    if (bytes == 0) return cudaSuccess;
    if (!on_device(ptr, bytes)) return result(cudaErrorInvalidValue);
    std::memset(ptr, value, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t) {
    return cudaMemset(ptr, value, bytes);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
    if (!stream) return result(cudaErrorInvalidValue);
    *stream = new CUstream_st;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (!stream) return result(cudaErrorInvalidResourceHandle);
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return waited(cudaSuccess); }

cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t event, unsigned int) {
    return event ? cudaSuccess : result(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void* user_data) {
    if (!fn) return result(cudaErrorInvalidValue);
    fn(user_data);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (!event) return result(cudaErrorInvalidValue);
    *event = new CUevent_st;
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    if (!event) return result(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
    if (!event) return result(cudaErrorInvalidResourceHandle);
    event->at = std::chrono::steady_clock::now();
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    return waited(event ? cudaSuccess : result(cudaErrorInvalidResourceHandle));
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!ms) return result(cudaErrorInvalidValue);
    if (!start || !end || !start->recorded || !end->recorded) return result(cudaErrorInvalidResourceHandle);
    *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
    return cudaSuccess;
}
