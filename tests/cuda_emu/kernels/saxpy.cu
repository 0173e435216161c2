#include "tests/cuda_emu/kernels/saxpy.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void saxpy(const LaunchConfig& c, float a, const float* x, float* y, int n) {
    cuda::launch(c, saxpy_kernel<float>, a, x, y, n);
}

void to_bfloat16(const LaunchConfig& c, const float* in, __nv_bfloat16* out, int n) {
    cuda::launch(c, to_bfloat16_kernel, in, out, n);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
