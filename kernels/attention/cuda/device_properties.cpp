#include <cstdio>

#include "kernels/attention/cuda/gpu.hpp"

namespace memwall::attention_cuda {

std::string DeviceProperties::summary() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s (sm_%d, %d SMs, %.2f GHz, L2 %.0f MiB, %.0f GB/s)", name.c_str(),
                  compute_capability, sms, sm_clock_hz * 1e-9, static_cast<double>(l2_bytes) / (1 << 20),
                  memory_bandwidth * 1e-9);
    return buf;
}

}  // namespace memwall::attention_cuda
