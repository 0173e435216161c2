#include "tests/cuda_emu/kernels/host_memory.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void read_host(const LaunchConfig& c, const float* host, float* out, int n) {
    cuda::launch(c, read_host_kernel, host, out, n);
}

void write_host(const LaunchConfig& c, const float* device, float* host, int n) {
    cuda::launch(c, write_host_kernel, device, host, n);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
