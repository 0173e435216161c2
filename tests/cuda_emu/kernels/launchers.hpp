// Host launchers of the cuda-emu test kernels (one .cu per .cuh). The same .cu files are
// compiled by nvcc for sm_80/sm_90 when CUDA is enabled, and for cuda-emu by the host compiler.
#pragma once

#include "cuda_emu/cuda.hpp"
#include "tests/cuda_emu/kernels/atomic_targets.hpp"

namespace memwall::emu_test {

using cuda::LaunchConfig;

inline constexpr int kBlockSumThreads = 128;
inline constexpr int kTreeSumThreads = 64;
inline constexpr int kRotateTileThreads = 64;

// A launch of `blocks` blocks of `threads` threads.
inline LaunchConfig grid_of(unsigned blocks, unsigned threads) {
    LaunchConfig c;
    c.grid = dim3(blocks);
    c.block = dim3(threads);
    return c;
}

// Blocks of `threads` threads enough for `n` elements, one a thread.
inline LaunchConfig blocks_of(int threads, int n) {
    LaunchConfig c;
    c.block = dim3(static_cast<unsigned>(threads));
    c.grid = dim3(static_cast<unsigned>((n + threads - 1) / threads));
    return c;
}

// Launchers: memwall::emu_test::cuda_gpu under nvcc, ::cuda_emu for the host compiler.
namespace MEMWALL_CUDA_NS {

// saxpy.cu
void saxpy(const LaunchConfig& c, float a, const float* x, float* y, int n);
void to_bfloat16(const LaunchConfig& c, const float* in, __nv_bfloat16* out, int n);

// transpose.cu
void transpose_naive(const LaunchConfig& c, const float* in, float* out, int rows, int cols);
void transpose_tiled(const LaunchConfig& c, const float* in, float* out, int rows, int cols);

// block.cu
void block_sum(const LaunchConfig& c, const float* x, float* partial, int n);
void barrier_votes(const LaunchConfig& c, const int* predicates, int* out);
void block_ticket(const LaunchConfig& c, unsigned* next, unsigned* order);
void read_before_write(const LaunchConfig& c, float* out);
void reverse_chunks(const LaunchConfig& c, const float* in, float* out, int n);
void reverse_chunks(const LaunchConfig& c, const double* in, double* out, int n);

// warp.cu
void shuffles(const LaunchConfig& c, const int* in, int* out);
void warp_sums(const LaunchConfig& c, const double* x, double* out);
void votes(const LaunchConfig& c, const int* in, unsigned* out);
void votes_after_exit(const LaunchConfig& c, const int* in, unsigned* out, unsigned active);

// atomics.cu
void apply_atomics(const LaunchConfig& c, const int* values, const AtomicTargets& targets);
void locked_increment(const LaunchConfig& c, int* lock, int* counter);
void histogram(const LaunchConfig& c, const int* values, int n, int* hist, int bins);

// shared.cu: rotate_tile in blocks of kRotateTileThreads threads
void rotate_tile(const LaunchConfig& c, const double* in, double* out, int shift);
void shared_histogram(const LaunchConfig& c, const int* values, int n, unsigned* hist, int bins);

// faults.cu
void different_barriers(const LaunchConfig& c, int* out);
void exit_before_barrier(const LaunchConfig& c, const float* in, float* out, int n);
void shuffle_against_barrier(const LaunchConfig& c, int* out);
void shuffle_outside_mask(const LaunchConfig& c, int* out);
void spin_on_flag(const LaunchConfig& c, int* flag);
void trap_in_thread(const LaunchConfig& c, unsigned thread);

// host_memory.cu: `host` is mapped pinned host memory (cudaHostAlloc)
void read_host(const LaunchConfig& c, const float* host, float* out, int n);
void write_host(const LaunchConfig& c, const float* device, float* host, int n);

// atomic_refs.cpp (emulation only)
void count_with_atomic_ref(const LaunchConfig& c, int* counter, int* flag, int* seen);

// race.cu: blocks of kTreeSumThreads threads, one sum each
void tree_sum(const LaunchConfig& c, bool synchronised, const float* x, float* out);

}  // namespace MEMWALL_CUDA_NS
}  // namespace memwall::emu_test
