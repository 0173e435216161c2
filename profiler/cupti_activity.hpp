// The kernels one piece of work launches and how long each ran on the GPU, from CUPTI's Activity
// API (concurrent-kernel records, GPU timestamps): a multi-kernel case's time split by kernel, as
// Nsight Systems shows it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "metrics/counter.hpp"

namespace memwall::cupti {

struct KernelTime {
    std::string name;  // as the compiler emitted it (mangled for C++ kernels)
    double seconds = 0;
};

// The kernels `work` launches, in the order they ended; `work` must synchronize before it
// returns. Throws Unavailable where CUPTI cannot be loaded, std::runtime_error naming a failed call.
std::vector<KernelTime> kernel_times(const std::function<void()>& work);

// A kernel's name for a counter: demangled, without its namespaces, template arguments and
// parameters ("memwall::lora_cuda::fused_gemm<float, 64>(...)" -> "fused_gemm").
std::string short_kernel_name(const std::string& name);

// "kernels.count" (launches) and, per short name in first-launch order, "kernel.<name>.seconds"
// (the sum over its launches) and, when it launched more than once, "kernel.<name>.launches";
// source cupti.
std::vector<Counter> kernel_counters(const std::vector<KernelTime>& kernels);

}  // namespace memwall::cupti
