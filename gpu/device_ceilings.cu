// The device's ceilings measured by kernels of its own (device_ceilings.hpp). nvcc only; its
// runs on GPUs are recorded in docs/gpu-runs/.
#include <cuda_runtime.h>

#include <algorithm>

#include "gpu/cuda_check.cuh"
#include "gpu/device_ceilings.hpp"

namespace memwall::gpu {

namespace {

constexpr int kThreads = 256;

// Each block reads its slice of `slice` float4s `passes` times: through L1 (the read-only path,
// __ldg) or around it (__ldcg, cached in L2 only), four loads in flight per thread. The sum is
// stored only if it equals an impossible value, so the loads stay.
template <bool ThroughL1>
__global__ void read_slices(const float4* data, long long slice, int passes, float* sink) {
    const float4* mine = data + static_cast<long long>(blockIdx.x) * slice;
    float acc = 0;
    for (int p = 0; p < passes; ++p)
#pragma unroll 4
        for (long long i = threadIdx.x; i < slice; i += blockDim.x) {
            const float4 v = ThroughL1 ? __ldg(mine + i) : __ldcg(mine + i);
            acc += (v.x + v.y) + (v.z + v.w);
        }
    if (acc == -1.2345e-30f) *sink = acc;
}

// Eight independent chains a = a * b + c per thread: enough to cover the FMA latency with the
// warps of a full SM. b = c = 0.5 keeps them finite (they converge to 1).
__global__ void fma_chains(long long iterations, float b, float c, float* sink) {
    float a[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) a[j] = 1.0f + 1e-3f * static_cast<float>(threadIdx.x + j);
    for (long long i = 0; i < iterations; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) a[j] = fmaf(a[j], b, c);
    }
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) s += a[j];
    if (s == -1.2345e-30f) *sink = s;
}

// Seconds of the best of `launches` launches of `launch`, after one untimed; the work grows
// (`grow` doubles it) until a launch lasts a millisecond, so event resolution does not matter.
template <class Launch>
double best_seconds(int launches, long long& work, Launch&& launch) {
    cudaEvent_t start = nullptr, stop = nullptr;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    auto timed = [&] {
        check(cudaEventRecord(start), "cudaEventRecord");
        launch(work);
        check(cudaGetLastError(), "kernel launch");
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        return 1e-3 * static_cast<double>(ms);
    };
    timed();  // warm-up: clocks up, caches filled
    while (timed() < 1e-3 && work < (1LL << 30)) work *= 2;
    double best = 1e30;
    for (int i = 0; i < launches; ++i) best = std::min(best, timed());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return best;
}

MeasuredDeviceCeilings measure() {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    const int sms = attribute(cudaDevAttrMultiProcessorCount, device);
    const long long l2 = attribute(cudaDevAttrL2CacheSize, device);
    MeasuredDeviceCeilings m;
    m.threads = kThreads;
    m.blocks = 8 * sms;  // 64 warps per SM: enough loads in flight to cover DRAM's latency
    m.launches = 5;
    m.l1_capacity = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    m.l2_capacity = static_cast<double>(l2);

    // Slices in float4s: 8 KiB per block for L1 (64 KiB per SM); half of L2 for L2; four L2s
    // for DRAM.
    const long long per_block[3] = {8192 / 16, std::max<long long>(l2 / 2 / m.blocks / 16, 1),
                                    std::max<long long>(4 * l2 / m.blocks / 16, 1)};
    float4* data = nullptr;
    float* sink = nullptr;
    check(cudaMalloc(&data, static_cast<size_t>(per_block[2] * m.blocks) * sizeof(float4)), "cudaMalloc");
    check(cudaMalloc(&sink, sizeof(float)), "cudaMalloc");
    check(cudaMemset(data, 0, static_cast<size_t>(per_block[2] * m.blocks) * sizeof(float4)), "cudaMemset");
    double* rates[3] = {&m.l1, &m.l2, &m.dram};
    double* sets[3] = {&m.l1_working_set, &m.l2_working_set, &m.dram_working_set};
    try {
        for (int level = 0; level < 3; ++level) {
            const long long slice = per_block[level];
            long long passes = 1;
            const double s = best_seconds(m.launches, passes, [&](long long p) {
                if (level == 0)
                    read_slices<true><<<m.blocks, kThreads>>>(data, slice, static_cast<int>(p), sink);
                else
                    read_slices<false><<<m.blocks, kThreads>>>(data, slice, static_cast<int>(p), sink);
            });
            *sets[level] = 16.0 * static_cast<double>(slice) * m.blocks;
            *rates[level] = *sets[level] * static_cast<double>(passes) / s;
        }
        long long iterations = 1024;
        const int fma_blocks = 8 * sms;
        const double s = best_seconds(m.launches, iterations,
                                      [&](long long n) { fma_chains<<<fma_blocks, kThreads>>>(n, 0.5f, 0.5f, sink); });
        m.fp32_fma = 2.0 * 8 * static_cast<double>(iterations) * fma_blocks * kThreads / s;
    } catch (...) {
        cudaFree(data);
        cudaFree(sink);
        throw;
    }
    cudaFree(data);
    cudaFree(sink);
    return m;
}

}  // namespace

MeasuredDeviceCeilings measure_device_ceilings_now() { return measure(); }

}  // namespace memwall::gpu
