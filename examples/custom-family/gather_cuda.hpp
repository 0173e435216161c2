// The gather kernel's device case (gather.cu), for cuda-emu and, built by nvcc, for GPUs. C++17
// and free of memwall's C++20 headers, so that nvcc compiles the launcher that includes it.
#pragma once

#include <cstdint>
#include <memory>

#include <memwall/device_case.hpp>

namespace gather_cuda {

// n lookups y[i] = x[index[i]] into a table of m floats.
struct Shape {
    long long n = 0, m = 0;
};

MEMWALL_BOTH_BUILDS(std::unique_ptr<memwall::kit::DeviceCase> make_device_case(const Shape& s, const float* table,
                                                                               const std::int32_t* index))

}  // namespace gather_cuda
