// What the `cuda` backend adds around a DeviceCase on a real GPU: nvbench-style cold timing,
// NVTX ranges and the device's description. Built by nvcc (gpu_timing.cu, gpu_device.cu) when
// CUDA is enabled; C++17 and free of CUDA headers. Not yet run on a GPU: no machine of this
// project has one, so this code is compiled in CI but unexercised.
#pragma once

#include <memory>
#include <string>

#include "kernels/attention/cuda/device_case.hpp"

namespace memwall::attention_cuda {

// A device as recorded with a run. Bandwidth is the theoretical peak: 2 transfers per memory
// clock (DDR) times the bus width.
struct DeviceProperties {
    int index = 0;
    std::string name;
    int compute_capability = 0;  // 10 * major + minor
    int sms = 0;
    double sm_clock_hz = 0;      // peak
    double memory_clock_hz = 0;  // peak
    int memory_bus_bits = 0;
    double memory_bandwidth = 0;  // bytes per second
    long long l2_bytes = 0;
    long long global_memory_bytes = 0;
    long long shared_per_block_optin = 0;

    // "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 1.98 GHz, L2 50 MiB, 3352 GB/s)".
    std::string summary() const;
};

namespace cuda_gpu {

// Throws std::runtime_error when the device cannot be queried.
DeviceProperties device_properties(int device);

// Times one forward pass of a DeviceCase as nvbench's cold measurements do: L2 flushed first
// (a cudaMemsetAsync over an L2-sized buffer), the launches queued behind a kernel that spins
// until the host has enqueued them all (so launch latency is not timed), CUDA events around
// the forward pass.
class ColdTimer {
public:
    ColdTimer();
    ~ColdTimer();
    ColdTimer(const ColdTimer&) = delete;
    ColdTimer& operator=(const ColdTimer&) = delete;

    // Seconds of GPU time; throws std::runtime_error on CUDA errors or when the spinning
    // kernel timed out before the host released it.
    double seconds(DeviceCase& c);

private:
    struct State;
    std::unique_ptr<State> state_;
};

// An NVTX range (family/variant/backend/params) open while it lives, for Nsight Systems.
class NvtxRange {
public:
    explicit NvtxRange(const std::string& name);
    ~NvtxRange();
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace cuda_gpu
}  // namespace memwall::attention_cuda
