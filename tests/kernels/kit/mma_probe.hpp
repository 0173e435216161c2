// Launchers of the probe kernels of kit/cuda/mma.cuh (mma_probe.cu), built for cuda-emu and, with
// CUDA, by nvcc: host vectors in and out, one warp per launch.
#pragma once

#include <cstdint>
#include <vector>

namespace memwall::kit_test {

#define MEMWALL_MMA_PROBES                                                                                           \
    /* count (1, 2, 4) 8x8 matrices row-major in; r[k] of each lane out, at 32 k + lane */                           \
    std::vector<std::uint32_t> ldmatrix_probe(int count, bool trans, const std::vector<std::uint16_t>& matrices);    \
    /* the inverse: registers at 32 k + lane in, the matrices stored out (shuffles: by the                           \
       stand-in sm_80 compiles) */                                                                                   \
    std::vector<std::uint16_t> stmatrix_probe(int count, bool trans, bool shuffles,                                  \
                                              const std::vector<std::uint32_t>& regs);                               \
    /* kind 0 bf16, 1 f16, 2 tf32; fragments at 32 i + lane; d out likewise */                                       \
    std::vector<float> mma_probe(int kind, const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b, \
                                 const std::vector<float>& c);                                                       \
    /* 64 floats in: pack_bf16x2(x[2i], x[2i + 1]) then to_tf32(x[i]) for i < 32, out */                             \
    std::vector<std::uint32_t> convert_probe(const std::vector<float>& x);                                           \
    /* cp_async_kernel's 16 words per lane from 16 source words per lane */                                          \
    std::vector<std::uint32_t> cp_async_probe(const std::vector<std::uint32_t>& source);                             \
    /* counted_kernel, .ca or .cg; its launch is the last one */                                                     \
    void counted_probe(bool ca);                                                                                     \
    /* matrix_fault_kernel in mode, with threads threads (throws cuda::LaunchError) */                               \
    void fault_probe(int mode, unsigned threads);

namespace cuda_emu {
MEMWALL_MMA_PROBES
}  // namespace cuda_emu
namespace cuda_gpu {
MEMWALL_MMA_PROBES
}  // namespace cuda_gpu

#undef MEMWALL_MMA_PROBES

}  // namespace memwall::kit_test
