#include "tests/cuda_emu/kernels/faults.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void different_barriers(const LaunchConfig& c, int* out) { cuda::launch(c, different_barriers_kernel, out); }

void exit_before_barrier(const LaunchConfig& c, const float* in, float* out, int n) {
    cuda::launch(c, exit_before_barrier_kernel, in, out, n);
}

void shuffle_against_barrier(const LaunchConfig& c, int* out) { cuda::launch(c, shuffle_against_barrier_kernel, out); }

void shuffle_outside_mask(const LaunchConfig& c, int* out) { cuda::launch(c, shuffle_outside_mask_kernel, out); }

void spin_on_flag(const LaunchConfig& c, int* flag) { cuda::launch(c, spin_on_flag_kernel, flag); }

void trap_in_thread(const LaunchConfig& c, unsigned thread) { cuda::launch(c, trap_in_thread_kernel, thread); }

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
