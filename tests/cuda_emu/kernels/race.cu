#include "tests/cuda_emu/kernels/race.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void tree_sum(const LaunchConfig& c, bool synchronised, const float* x, float* out) {
    if (synchronised)
        cuda::launch(c, tree_sum_kernel<true, kTreeSumThreads>, x, out);
    else
        cuda::launch(c, tree_sum_kernel<false, kTreeSumThreads>, x, out);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
