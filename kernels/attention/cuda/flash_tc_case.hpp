// flash_tc's device case (flash_tc.cu), which make_device_case (device_cases.cu) returns
// for Algorithm::flash_tc; declared for both builds (MEMWALL_CUDA_NS).
#pragma once

#include <memory>

#include "kernels/attention/cuda/device_case.hpp"
// After the standard headers (cuda-emu's __noinline__ macro).
#include "cuda_emu/cuda.hpp"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

// Takes a (shape, tuning) that validate() accepted.
std::unique_ptr<DeviceCase> make_flash_tc_case(const Shape& s, const Tuning& t, const Inputs& in,
                                               const emu::EmulationOptions& options);

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
