// The tensor-core kernels' device case (conv_tc.cu), which make_device_case (device_cases.cu)
// returns for implicit_gemm_tc and im2win_tc; declared for both builds (MEMWALL_CUDA_NS).
#pragma once

#include <memory>

#include "kernels/conv/cuda/device_case.hpp"
// After the standard headers (cuda-emu's __noinline__ macro).
#include "cuda_emu/cuda.hpp"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// Takes a (shape, tuning) that validate() accepted.
std::unique_ptr<DeviceCase> make_tc_case(const Shape& s, const Tuning& t, const Inputs& in,
                                         const emu::EmulationOptions& options);

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
