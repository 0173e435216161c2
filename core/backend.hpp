// Where a variant runs, and whether that is possible on this machine.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memwall {

// cpu: native C++. cuda: an NVIDIA GPU. cuda_emu: the same CUDA kernel source run on the CPU
// by memwall's emulation layer (its times are emulation times, never GPU times).
enum class Backend { cpu, cuda, cuda_emu };

inline constexpr Backend kAllBackends[] = {Backend::cpu, Backend::cuda, Backend::cuda_emu};

std::string_view to_string(Backend b);
std::optional<Backend> backend_from(std::string_view s);

struct BackendStatus {
    Backend backend;
    bool available = false;
    std::string reason;  // why not, when unavailable
    std::string device;  // what it runs on, when available
};

// Probes this machine (CPU model and cores; NVIDIA driver and devices; emulation built in).
BackendStatus probe_backend(Backend b);

}  // namespace memwall
