// For a family's C++17 header of its CUDA kernels' device cases (docs/adding-a-family.md): the
// DeviceCase a launcher implements, and MEMWALL_BOTH_BUILDS, which declares a launcher's factory
// once for both builds of the .cu (cuda_emu: the host compiler's; cuda_gpu: nvcc's).
#pragma once

#include "kernels/kit/device_case.hpp"

// MEMWALL_BOTH_BUILDS(std::unique_ptr<memwall::kit::DeviceCase> make_device_case(const Shape& s));
#define MEMWALL_BOTH_BUILDS(...) \
    namespace cuda_emu {         \
    __VA_ARGS__;                 \
    }                            \
    namespace cuda_gpu {         \
    __VA_ARGS__;                 \
    }
