// The CUDA device a run measures on, as cudaGetDeviceProperties describes it: recorded with the
// run (harness/device_description) and shown by `memwall show`. C++17 and free of CUDA headers.
#pragma once

#include <optional>
#include <string>

namespace memwall::gpu {

// Bandwidth is the theoretical peak: 2 transfers per memory clock (DDR) times the bus width.
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

// CUDA device `device`, or nullopt when memwall was built without CUDA or the device cannot be
// queried (no driver, no device). Throws nothing.
std::optional<DeviceProperties> cuda_device_properties(int device = 0);

}  // namespace memwall::gpu
