// The gather kernel's device case (gather.cu), for cuda-emu and, built by nvcc, for GPUs. C++17
// and free of memwall's C++20 headers, so that nvcc compiles the launcher that includes it.
#pragma once

#include <cstdint>
#include <memory>

#include "kernels/kit/device_case.hpp"

namespace gather_cuda {

// n lookups y[i] = x[index[i]] into a table of m floats.
struct Inputs {
    long long n = 0, m = 0;
    const float* table = nullptr;
    const std::int32_t* index = nullptr;
};

namespace cuda_emu {
std::unique_ptr<memwall::kit::DeviceCase> make_case(const Inputs& in);
}
namespace cuda_gpu {
std::unique_ptr<memwall::kit::DeviceCase> make_case(const Inputs& in);
}

}  // namespace gather_cuda
