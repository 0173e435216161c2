// What ptxas gave the tensor-core kernels (gemm_tc.cuh, down_project_tc.cuh) on sm_90
// (kit/kernel_resources.hpp), read at build time from the nvcc build (cmake/KernelResources.cmake).
#pragma once

#include <string>

#include "kernels/kit/kernel_resources.hpp"
#include "kernels/lora/cuda/device_case.hpp"

namespace memwall::lora_cuda {

using kit::KernelResources;
using kit::KernelResourceTable;

// gemm_tc's and down_project_tc's kernels on sm_90; no kernels, and why, in a build without CUDA.
const KernelResourceTable& gemm_tc_sm90_resources();

// The row of a tile's kernel (gemm_tc_kernel<BM, BN, warps, stages>), or nullptr.
const KernelResources* gemm_tc_resources(const KernelResourceTable& table, const TcTile& tile);
// The row of the down-projection's kernel for S's padded width RP (16, 32 or 64), or nullptr.
const KernelResources* down_tc_resources(const KernelResourceTable& table, int rp);

// One line per compiled tile and down-projection: registers, HMMA, shared memory per block, blocks
// and warps per SM on sm_90, spills; empty without CUDA.
std::string gemm_tc_resource_summary();

}  // namespace memwall::lora_cuda
