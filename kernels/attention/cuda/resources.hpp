// What ptxas gave flash_tc's compiled kernels on sm_90 (registers, spills, static shared memory)
// and how many matrix instructions each holds: read at build time from the nvcc build
// (cmake/KernelResources.cmake), so that every build, without a GPU, shows and tests them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/attention/cuda/device_case.hpp"

namespace memwall::attention_cuda {

struct KernelResources {
    std::string_view kernel;          // the mangled name
    int registers = 0;                // per thread
    int spill_bytes = 0;              // local-memory spill stores and loads
    int stack_bytes = 0;              // stack frame
    int static_shared_bytes = 0;      // __shared__ variables; the dynamic part is the launcher's
    int matrix_instructions = 0;      // per KernelResourceTable::evidence
};

struct KernelResourceTable {
    int arch = 0;                    // sm_<arch>; 0 when memwall was built without CUDA
    std::string_view evidence;       // what matrix_instructions counts: HMMA in the SASS, and who read it
    std::vector<KernelResources> kernels;
};

// flash_tc's kernels on sm_90; no kernels, and why, in a build without CUDA.
const KernelResourceTable& flash_tc_sm90_resources();

// The row of a tile's kernel (flash_tc_kernel<d, Br, Bc, stages>), or nullptr.
const KernelResources* flash_tc_resources(const KernelResourceTable& table, const FlashTcTile& tile);

// Blocks resident per SM on sm_90: 65536 registers given to warps in units of 256, 64 warps,
// 228 KB of shared memory with 1 KB reserved per block, 32 blocks.
int sm90_blocks_per_sm(int registers, int threads, std::size_t shared_bytes);

// One line per compiled tile: registers, shared memory per block, blocks and warps per SM on
// sm_90, spills; empty without CUDA.
std::string flash_tc_resource_summary();

}  // namespace memwall::attention_cuda
