// The GPU-only parts of the cuda backend: cold timing, NVTX ranges, device properties. nvcc
// only; its runs on GPUs are recorded in docs/gpu-runs/.
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <stdexcept>
#include <string>

#include "gpu/cold_timer.hpp"
#include "gpu/cuda_check.cuh"
#include "gpu/context.hpp"
#include "gpu/device_properties.hpp"
#include "gpu/nvtx_range.hpp"

namespace memwall::gpu {

namespace {

// nvbench's blocking kernel: holds the stream until the host sets *release, so the work
// queued behind it starts back to back. Gives up after `timeout_ns` of GPU time (a host
// that died must not hang the device) and says so in *timed_out.
__global__ void blocking_kernel(const volatile int* release, volatile int* timed_out, unsigned long long timeout_ns) {
    unsigned long long start = 0, now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    while (*release == 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > timeout_ns) {
            *timed_out = 1;
            return;
        }
        __nanosleep(1000);
    }
}

// Reads `words` ints so their lines displace what L2 holds; the sum is stored only if it equals
// an impossible value, so the loads are not optimised away.
__global__ void read_through(const int* data, long long words, int* sink) {
    int sum = 0;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
         i += static_cast<long long>(gridDim.x) * blockDim.x)
        sum += data[i];
    if (sum == 0x7fffffff) *sink = sum;
}

}  // namespace

struct ColdTimer::State {
    int* flags = nullptr;  // mapped pinned host memory: [0] release, [1] timed out
    int* device_flags = nullptr;
    void* l2_buffer = nullptr;
    void* l2_clean = nullptr;  // read after the memset: its clean lines displace the memset's dirty ones
    std::size_t l2_bytes = 0;
    cudaEvent_t start = nullptr, stop = nullptr;
};

ColdTimer::ColdTimer() : state_(std::make_unique<State>()) {
    State& s = *state_;
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    s.l2_bytes = static_cast<std::size_t>(attribute(cudaDevAttrL2CacheSize, device));
    if (s.l2_bytes > 0) {
        check(cudaMalloc(&s.l2_buffer, s.l2_bytes), "cudaMalloc");
        check(cudaMalloc(&s.l2_clean, s.l2_bytes), "cudaMalloc");
        check(cudaMemset(s.l2_clean, 0, s.l2_bytes), "cudaMemset");
    }
    check(cudaHostAlloc(reinterpret_cast<void**>(&s.flags), 2 * sizeof(int), cudaHostAllocMapped), "cudaHostAlloc");
    check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&s.device_flags), s.flags, 0), "cudaHostGetDevicePointer");
    check(cudaEventCreate(&s.start), "cudaEventCreate");
    check(cudaEventCreate(&s.stop), "cudaEventCreate");
}

ColdTimer::~ColdTimer() {
    cudaEventDestroy(state_->start);
    cudaEventDestroy(state_->stop);
    cudaFreeHost(state_->flags);
    cudaFree(state_->l2_buffer);
    cudaFree(state_->l2_clean);
}

void ColdTimer::flush_l2() {
    State& s = *state_;
    if (s.l2_bytes > 0) check(cudaMemsetAsync(s.l2_buffer, 0, s.l2_bytes), "cudaMemsetAsync");
}

void ColdTimer::flush_l2_clean() {
    State& s = *state_;
    if (s.l2_bytes == 0) return;
    flush_l2();
    const auto words = static_cast<long long>(s.l2_bytes / sizeof(int));
    read_through<<<1024, 256>>>(static_cast<const int*>(s.l2_clean), words, static_cast<int*>(s.l2_buffer));
    check(cudaGetLastError(), "read_through launch");
}

double ColdTimer::seconds(const std::function<void()>& enqueue) {
    State& s = *state_;
    flush_l2();
    volatile int* flags = s.flags;
    flags[0] = 0;
    flags[1] = 0;
    blocking_kernel<<<1, 1>>>(s.device_flags, s.device_flags + 1, 1'000'000'000ull);
    check(cudaGetLastError(), "blocking kernel launch");
    check(cudaEventRecord(s.start), "cudaEventRecord");
    enqueue();
    check(cudaEventRecord(s.stop), "cudaEventRecord");
    flags[0] = 1;
    check(cudaEventSynchronize(s.stop), "cudaEventSynchronize");
    if (flags[1] != 0)
        throw std::runtime_error(
            "the blocking kernel timed out: the launches took over 1 s to enqueue (a forward "
            "pass that waits on the host must say so: CudaKernel::waits_on_host)");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, s.start, s.stop), "cudaEventElapsedTime");
    return static_cast<double>(ms) * 1e-3;
}

double ColdTimer::seconds_waiting(const std::function<void()>& enqueue) {
    State& s = *state_;
    flush_l2();
    check(cudaEventRecord(s.start), "cudaEventRecord");
    enqueue();
    check(cudaEventRecord(s.stop), "cudaEventRecord");
    check(cudaEventSynchronize(s.stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, s.start, s.stop), "cudaEventElapsedTime");
    return static_cast<double>(ms) * 1e-3;
}

void* current_context() {
    check(cudaFree(nullptr), "cudaFree(nullptr)");  // creates and makes current the primary context
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
    check(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000, cudaEnableDefault, &found),
          "cudaGetDriverEntryPointByVersion(cuCtxGetCurrent)");
    if (found != cudaDriverEntryPointSuccess || !entry)
        throw std::runtime_error("the CUDA driver has no cuCtxGetCurrent");
    CUcontext context = nullptr;
    const CUresult r = reinterpret_cast<CUresult (*)(CUcontext*)>(entry)(&context);
    if (r != CUDA_SUCCESS || !context)
        throw std::runtime_error("cuCtxGetCurrent failed (CUresult " + std::to_string(static_cast<int>(r)) + ")");
    return context;
}

int current_device() {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    return device;
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

NvtxRange::NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
NvtxRange::~NvtxRange() { nvtxRangePop(); }

DeviceProperties query_device_properties(int device) {
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
    DeviceProperties d;
    d.index = device;
    d.name = p.name;
    d.compute_capability = 10 * p.major + p.minor;
    d.sms = p.multiProcessorCount;
    d.sm_clock_hz = 1e3 * attribute(cudaDevAttrClockRate, device);            // kHz
    d.memory_clock_hz = 1e3 * attribute(cudaDevAttrMemoryClockRate, device);  // kHz
    d.memory_bus_bits = p.memoryBusWidth;
    d.memory_bandwidth = 2.0 * d.memory_clock_hz * d.memory_bus_bits / 8.0;
    d.l2_bytes = p.l2CacheSize;
    d.global_memory_bytes = static_cast<long long>(p.totalGlobalMem);
    d.shared_per_block_optin = static_cast<long long>(p.sharedMemPerBlockOptin);
    return d;
}

}  // namespace memwall::gpu
