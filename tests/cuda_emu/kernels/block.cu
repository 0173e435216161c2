#include "tests/cuda_emu/kernels/block.cuh"

#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

void block_sum(const LaunchConfig& c, const float* x, float* partial, int n) {
    cuda::launch(c, block_sum_kernel<kBlockSumThreads>, x, partial, n);
}

void barrier_votes(const LaunchConfig& c, const int* predicates, int* out) {
    cuda::launch(c, barrier_votes_kernel, predicates, out);
}

void block_ticket(const LaunchConfig& c, unsigned* next, unsigned* order) {
    cuda::launch(c, block_ticket_kernel, next, order);
}

void read_before_write(const LaunchConfig& c, float* out) { cuda::launch(c, read_before_write_kernel, out); }

void reverse_chunks(const LaunchConfig& c, const float* in, float* out, int n) {
    cuda::launch(c, reverse_chunks_kernel<float>, in, out, n);
}

void reverse_chunks(const LaunchConfig& c, const double* in, double* out, int n) {
    cuda::launch(c, reverse_chunks_kernel<double>, in, out, n);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS
