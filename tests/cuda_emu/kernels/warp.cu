#include "tests/cuda_emu/kernels/warp.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void shuffles(const LaunchConfig& c, const int* in, int* out) { cuda::launch(c, shuffles_kernel, in, out); }

void warp_sums(const LaunchConfig& c, const double* x, double* out) { cuda::launch(c, warp_sums_kernel, x, out); }

void votes(const LaunchConfig& c, const int* in, unsigned* out) { cuda::launch(c, votes_kernel, in, out); }

void votes_after_exit(const LaunchConfig& c, const int* in, unsigned* out, unsigned active) {
    cuda::launch(c, votes_after_exit_kernel, in, out, active);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
