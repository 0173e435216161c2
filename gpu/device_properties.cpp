#include "gpu/device_properties.hpp"

#include <cstdio>
#include <exception>

#include "core/backend.hpp"

namespace memwall::gpu {

#ifdef MEMWALL_HAVE_CUDA
// runtime.cu: throws std::runtime_error when the device cannot be queried.
DeviceProperties query_device_properties(int device);
#endif

std::string DeviceProperties::summary() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s (sm_%d, %d SMs, %.2f GHz, L2 %.0f MiB, %.0f GB/s)", name.c_str(),
                  compute_capability, sms, sm_clock_hz * 1e-9, static_cast<double>(l2_bytes) / (1 << 20),
                  memory_bandwidth * 1e-9);
    return buf;
}

std::optional<DeviceProperties> cuda_device_properties([[maybe_unused]] int device) {
#ifdef MEMWALL_HAVE_CUDA
    if (!probe_backend(Backend::cuda).available) return std::nullopt;
    try {
        return query_device_properties(device);
    } catch (const std::exception&) {
        return std::nullopt;
    }
#else
    return std::nullopt;
#endif
}

}  // namespace memwall::gpu
