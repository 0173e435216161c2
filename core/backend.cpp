#include "core/backend.hpp"

#include <dlfcn.h>

#include "core/isa.hpp"
#include "core/machine.hpp"

namespace memwall {

std::string_view to_string(Backend b) {
    switch (b) {
        case Backend::cpu: return "cpu";
        case Backend::cuda: return "cuda";
        case Backend::cuda_emu: return "cuda-emu";
    }
    return "?";
}

std::optional<Backend> backend_from(std::string_view s) {
    for (Backend b : kAllBackends)
        if (to_string(b) == s) return b;
    return std::nullopt;
}

namespace {

// Asks the driver API (loaded at run time, so memwall needs no driver to start) how many
// devices there are.
BackendStatus probe_cuda_driver() {
    BackendStatus st{.backend = Backend::cuda};
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        st.reason = "no NVIDIA driver (libcuda.so.1 not found)";
        return st;
    }
    using init_fn = int (*)(unsigned);
    using count_fn = int (*)(int*);
    auto cu_init = reinterpret_cast<init_fn>(dlsym(lib, "cuInit"));
    auto cu_count = reinterpret_cast<count_fn>(dlsym(lib, "cuDeviceGetCount"));
    int n = 0;
    if (!cu_init || !cu_count) {
        st.reason = "NVIDIA driver library lacks cuInit/cuDeviceGetCount";
    } else if (int rc = cu_init(0); rc != 0) {
        st.reason = "NVIDIA driver failed to initialise (CUresult " + std::to_string(rc) + ")";
    } else if (cu_count(&n) != 0 || n == 0) {
        st.reason = "no CUDA device found";
    } else {
        st.available = true;
        st.device = std::to_string(n) + " CUDA device(s)";
    }
    dlclose(lib);
    return st;
}

}  // namespace

BackendStatus probe_backend(Backend b) {
    switch (b) {
        case Backend::cpu: {
            // A lowered ISA is a device of its own: its tuned configurations are not the CPU's.
            std::string device = cpu_description();
            if (active_isa() != host_isa()) device += ", " + std::string(isa_name(active_isa())) + " kernels";
            return {.backend = b, .available = true, .reason = {}, .device = std::move(device)};
        }
        case Backend::cuda: {
            BackendStatus st = probe_cuda_driver();
#ifndef MEMWALL_HAVE_CUDA
            if (st.available) {
                st.available = false;
                st.reason = "memwall was built without CUDA (nvcc not found at configure time)";
            }
#endif
            return st;
        }
        case Backend::cuda_emu:
            return {.backend = b, .available = true, .reason = {}, .device = "CPU emulation of CUDA kernels"};
    }
    return {.backend = b};
}

}  // namespace memwall
