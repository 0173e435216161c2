// A benchmark's CUDA source (.cu): the kernel, memwall::launch, and MEMWALL_BENCH
// (<memwall/bench.hpp>), whose `.cuda` body launches it. memwall_add_benchmark compiles the source
// twice, for cuda-emu (exact traffic, on the CPU) and by nvcc for GPUs where CUDA is enabled,
// each inside its own namespace, so the file needs none: include this header alone, first.
#pragma once

// Standard headers before cuda-emu's macros, which break libstdc++'s headers included after them.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/kit/cuda/bench_case.cuh"

#if defined(__CUDACC__)
#define MEMWALL_BENCH_BUILD \
    ::memwall::kit::BenchBuild { ::memwall::kit::BenchBuild::Kind::cuda, &::memwall::kit::cuda_gpu::make_bench_case }
#else
#define MEMWALL_BENCH_BUILD                                                                    \
    ::memwall::kit::BenchBuild {                                                               \
        ::memwall::kit::BenchBuild::Kind::cuda_emu, &::memwall::kit::cuda_emu::make_bench_case \
    }
#endif

#include <memwall/bench.hpp>

namespace memwall {

// Blocks of `threads` covering n.
inline unsigned blocks(long long n, int threads) { return static_cast<unsigned>((n + threads - 1) / threads); }

// kernel<<<grid, threads>>>(args...), run by cuda-emu on the CPU in its build.
template <class... Params, class... Args>
void launch(unsigned grid, int threads, void (*kernel)(Params...), Args&&... args) {
    cuda::LaunchConfig c;
    c.grid = dim3(grid);
    c.block = dim3(static_cast<unsigned>(threads));
    cuda::launch(c, kernel, std::forward<Args>(args)...);
}

}  // namespace memwall
