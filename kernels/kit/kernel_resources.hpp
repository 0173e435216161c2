// What ptxas gave a family's compiled tensor-core kernels on sm_90 (registers, spills, static
// shared memory) and how many matrix instructions each holds: read at build time from the nvcc
// build (cmake/KernelResources.cmake generates a family's table), so that every build, without a
// GPU, shows and tests them; and the occupancy that follows.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace memwall::kit {

struct KernelResources {
    std::string_view kernel;      // the mangled name
    int registers = 0;            // per thread
    int spill_bytes = 0;          // local-memory spill stores and loads
    int stack_bytes = 0;          // stack frame
    int static_shared_bytes = 0;  // __shared__ variables; the dynamic part is the launcher's
    int matrix_instructions = 0;  // per KernelResourceTable::evidence
};

struct KernelResourceTable {
    int arch = 0;               // sm_<arch>; 0 when memwall was built without CUDA
    std::string_view evidence;  // what matrix_instructions counts: HMMA in the SASS, and who read it
    std::vector<KernelResources> kernels;
};

// The row of the kernel whose mangled name contains `name`, or nullptr.
const KernelResources* find_kernel(const KernelResourceTable& table, std::string_view name);

// Blocks resident per SM on sm_90: 65536 registers given to warps in units of 256, 64 warps,
// 228 KB of shared memory with 1 KB reserved per block, 32 blocks.
int sm90_blocks_per_sm(int registers, int threads, std::size_t shared_bytes);

// A kernel's figures on sm_90 for a block of `threads` with `dynamic_shared` bytes: "R registers,
// H HMMA, S KiB shared, B blocks/SM (W warps), X spill bytes".
std::string sm90_summary(const KernelResources& k, int threads, std::size_t dynamic_shared);

}  // namespace memwall::kit
