// How fast cuda-emu runs kernels: block barriers and warp shuffles (fiber switches), and
// counted global accesses (the traffic hooks). Emulation speed, not a GPU figure.
#include <benchmark/benchmark.h>

#include "cuda_emu/cuda.hpp"

namespace {

__global__ void barriers(int rounds) {
    for (int r = 0; r < rounds; ++r) __syncthreads();
}

__global__ void shuffles(int rounds, int* out) {
    int v = static_cast<int>(threadIdx.x);
    for (int r = 0; r < rounds; ++r) v += __shfl_xor_sync(0xffffffffu, v, r & 31);
    if (v == -1) *out = v;  // keeps the loop
}

__global__ void streams(const float* x, float* y, int n) {
    const int stride = static_cast<int>(gridDim.x * blockDim.x);
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += stride) y[i] = 2.0f * x[i] + y[i];
}

memwall::cuda::LaunchConfig config(unsigned blocks, unsigned threads) {
    memwall::cuda::LaunchConfig c;
    c.grid = dim3(blocks);
    c.block = dim3(threads);
    return c;
}

// Items: one thread passing one barrier.
void BM_Barriers(benchmark::State& state) {
    const auto threads = static_cast<unsigned>(state.range(0));
    const int rounds = 64;
    for (auto _ : state) memwall::cuda::launch(config(8, threads), barriers, rounds);
    state.SetItemsProcessed(state.iterations() * 8 * threads * rounds);
}
BENCHMARK(BM_Barriers)->Arg(32)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);

// Items: one lane taking part in one shuffle.
void BM_Shuffles(benchmark::State& state) {
    int* out = nullptr;
    cudaMalloc(&out, sizeof(int));
    const int rounds = 64;
    for (auto _ : state) memwall::cuda::launch(config(8, 256), shuffles, rounds, out);
    state.SetItemsProcessed(state.iterations() * 8 * 256 * rounds);
    cudaFree(out);
}
BENCHMARK(BM_Shuffles)->Unit(benchmark::kMillisecond);

// Items: one counted global access (two loads and a store per element).
void BM_CountedAccesses(benchmark::State& state) {
    const int n = 1 << 20;
    float *x = nullptr, *y = nullptr;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));
    cudaMemset(y, 0, n * sizeof(float));
    for (auto _ : state) memwall::cuda::launch(config(64, 256), streams, x, y, n);
    state.SetItemsProcessed(state.iterations() * 3 * n);
    cudaFree(x);
    cudaFree(y);
}
BENCHMARK(BM_CountedAccesses)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
