// The toy kernel's device case (scale.cu), built for cuda-emu and, with CUDA, by nvcc.
#pragma once

#include <memory>
#include <vector>

#include "kernels/kit/device_case.hpp"

namespace memwall::kit_test {

namespace cuda_emu {
// Throws std::invalid_argument when `in` is empty.
std::unique_ptr<kit::DeviceCase> make_scale_case(const std::vector<float>& in, bool bf16);
}  // namespace cuda_emu
namespace cuda_gpu {
std::unique_ptr<kit::DeviceCase> make_scale_case(const std::vector<float>& in, bool bf16);
}  // namespace cuda_gpu

}  // namespace memwall::kit_test
