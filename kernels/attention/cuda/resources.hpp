// What ptxas gave flash_tc's compiled kernels on sm_90 (kit/kernel_resources.hpp), read at build
// time from the nvcc build (cmake/KernelResources.cmake).
#pragma once

#include <string>

#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/kit/kernel_resources.hpp"

namespace memwall::attention_cuda {

using kit::KernelResources;
using kit::KernelResourceTable;
using kit::sm90_blocks_per_sm;

// flash_tc's kernels on sm_90; no kernels, and why, in a build without CUDA.
const KernelResourceTable& flash_tc_sm90_resources();

// The row of a tile's kernel (flash_tc_kernel<d, Br, Bc, stages>), or nullptr.
const KernelResources* flash_tc_resources(const KernelResourceTable& table, const FlashTcTile& tile);

// One line per compiled tile: registers, shared memory per block, blocks and warps per SM on
// sm_90, spills; empty without CUDA.
std::string flash_tc_resource_summary();

}  // namespace memwall::attention_cuda
