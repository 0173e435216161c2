#include "gpu/device_ceilings.hpp"

#include <exception>

#include "core/backend.hpp"

namespace memwall::gpu {

#ifdef MEMWALL_HAVE_CUDA
// device_ceilings.cu: throws std::runtime_error on a CUDA error.
MeasuredDeviceCeilings measure_device_ceilings_now();
#endif

std::optional<MeasuredDeviceCeilings> measure_device_ceilings(std::string* why) {
#ifdef MEMWALL_HAVE_CUDA
    if (const BackendStatus st = probe_backend(Backend::cuda); !st.available) {
        if (why) *why = st.reason;
        return std::nullopt;
    }
    try {
        return measure_device_ceilings_now();
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return std::nullopt;
    }
#else
    if (why) *why = "memwall was built without CUDA";
    return std::nullopt;
#endif
}

}  // namespace memwall::gpu
