// memwall's one kernel launch: a real <<< >>> launch when nvcc compiles the caller, an emulated
// launch on the CPU when the host compiler does. Kernels live in .cuh files without <<< >>>.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cuda_emu/options.hpp"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include "cuda_emu/runtime_api.hpp"
#endif

namespace memwall::cuda {

// A launch that failed: invalid configuration, a CUDA error, or in emulation a deadlock, a
// timeout or an exception thrown by a kernel thread.
struct LaunchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct LaunchConfig {
    dim3 grid{1, 1, 1};
    dim3 block{1, 1, 1};
    std::size_t dynamic_shared = 0;  // bytes behind MEMWALL_DYNAMIC_SHARED
    cudaStream_t stream = nullptr;
    emu::EmulationOptions emu{};  // ignored by real launches
};

}  // namespace memwall::cuda

#if !defined(__CUDACC__)
namespace memwall::emu::detail {
// Runs every thread of the grid on the calling OS thread: thread(context) is one CUDA thread.
void run_grid(const cuda::LaunchConfig& config, void (*thread)(void*), void* context);
}  // namespace memwall::emu::detail
#endif

namespace memwall::cuda {

// Launches kernel over config.grid x config.block with args converted to its parameters.
// Throws LaunchError; in emulation it returns once the grid has finished.
template <class... Params, class... Args>
void launch(const LaunchConfig& config, void (*kernel)(Params...), Args&&... args) {
    static_assert(sizeof...(Params) == sizeof...(Args), "launch: wrong number of kernel arguments");
#if defined(__CUDACC__)
    if (config.dynamic_shared > 48 * 1024) {
        // Above 48 KiB a kernel must opt in to its dynamic shared memory.
        cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(config.dynamic_shared));
        if (e != cudaSuccess) throw LaunchError(std::string("cudaFuncSetAttribute failed: ") + cudaGetErrorString(e));
    }
    kernel<<<config.grid, config.block, config.dynamic_shared, config.stream>>>(std::forward<Args>(args)...);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw LaunchError(std::string("kernel launch failed: ") + cudaGetErrorString(e));
#else
    // Each CUDA thread gets its own copy of the parameters, as on a GPU.
    std::tuple<std::decay_t<Params>...> params(std::forward<Args>(args)...);
    auto thread = [&] { std::apply(kernel, params); };
    emu::detail::run_grid(
        config, [](void* c) { (*static_cast<decltype(thread)*>(c))(); }, &thread);
#endif
}

}  // namespace memwall::cuda
