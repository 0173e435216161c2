// Runs the block sums of race.cuh under ThreadSanitizer. "race": the tree lacks its barriers,
// and ctest expects ThreadSanitizer's report. "clean": with them, ctest expects "all sums
// correct" and no report.
#include <cstdio>
#include <numeric>
#include <string_view>
#include <vector>

#include "cuda_emu/runtime_api.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

int main(int argc, char** argv) {
    const std::string_view mode = argc == 2 ? argv[1] : "";
    if (mode != "race" && mode != "clean") {
        std::fprintf(stderr, "usage: cuda_emu_tsan_race race|clean\n");
        return 2;
    }
    constexpr int blocks = 2, block = memwall::emu_test::kTreeSumThreads, n = blocks * block;
    std::vector<float> x(n);
    std::iota(x.begin(), x.end(), 1.0f);
    float *dx = nullptr, *dsums = nullptr;
    if (cudaMalloc(&dx, sizeof(float) * n) != cudaSuccess ||
        cudaMalloc(&dsums, sizeof(float) * blocks) != cudaSuccess ||
        cudaMemcpy(dx, x.data(), sizeof(float) * n, cudaMemcpyHostToDevice) != cudaSuccess)
        return 1;
    memwall::cuda::LaunchConfig c;
    c.grid = dim3(blocks);
    c.block = dim3(block);
    memwall::emu_test::cuda_emu::tree_sum(c, mode == "clean", dx, dsums);
    std::vector<float> sums(blocks);
    cudaMemcpy(sums.data(), dsums, sizeof(float) * blocks, cudaMemcpyDeviceToHost);
    bool correct = true;
    for (int b = 0; b < blocks; ++b) {
        const float want = std::accumulate(x.begin() + b * block, x.begin() + (b + 1) * block, 0.0f);
        std::printf("block %d: sum %g, expected %g\n", b, sums[b], want);
        correct = correct && sums[b] == want;
    }
    if (correct) std::printf("all sums correct\n");
    cudaFree(dx);
    cudaFree(dsums);
    return mode == "clean" && !correct ? 1 : 0;
}
