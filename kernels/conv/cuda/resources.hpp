// What ptxas gave the tensor-core conv kernels on sm_90 (kit/kernel_resources.hpp), by variant,
// dtype and tile.
#pragma once

#include <string>

#include "kernels/conv/cuda/device_case.hpp"
#include "kernels/kit/kernel_resources.hpp"

namespace memwall::conv_cuda {

using kit::KernelResources;
using kit::KernelResourceTable;

// implicit_gemm_tc's and im2win_tc's kernels on sm_90; no kernels, and why, without CUDA.
const KernelResourceTable& conv_tc_sm90_resources();

// The row of the kernel of (algorithm, dtype, tile), or nullptr.
const KernelResources* conv_tc_resources(const KernelResourceTable& table, Algorithm a, Dtype d,
                                         const ConvTcTile& tile);

// One entry per dtype and compiled tile of `a`: registers, HMMA, shared memory per block, blocks
// and warps per SM on sm_90, spills; empty without CUDA.
std::string conv_tc_resource_summary(Algorithm a);

}  // namespace memwall::conv_cuda
