// The roofline ceilings of the current CUDA device, measured on it: read bandwidth at L1, L2 and
// DRAM and the FP32 FMA peak, each the best of several timed launches of a kernel built for it.
// C++17 and free of CUDA headers (device_ceilings.cu is built by nvcc).
#pragma once

#include <optional>
#include <string>

namespace memwall::gpu {

struct MeasuredDeviceCeilings {
    // Bytes read per second: each block reads its own slice again and again, through L1
    // (__ldg, slices a few KiB per block), through L2 only (__ldcg, half of L2 in all) and from
    // DRAM (__ldcg, four L2s in all, so every pass misses).
    double l1 = 0, l2 = 0, dram = 0;
    double l1_working_set = 0, l2_working_set = 0, dram_working_set = 0;  // bytes, all blocks
    double fp32_fma = 0;                      // FLOP/s: eight independent FMA chains per thread, every SM full
    double l1_capacity = 0, l2_capacity = 0;  // bytes: shared memory and L1 of one SM; L2
    int blocks = 0, threads = 0;              // of the bandwidth kernels
    int launches = 0;                         // timed per figure (the best is kept)
};

// The current device's ceilings, or nullopt with the reason in *why (when given): memwall built
// without CUDA, no device, or a CUDA error. Takes about a second on a GPU. Throws nothing.
std::optional<MeasuredDeviceCeilings> measure_device_ceilings(std::string* why = nullptr);

}  // namespace memwall::gpu
