// A CUDA device's roofline ceilings from its properties: theoretical peaks, as Nsight Compute's
// roofline draws them. A run uses them where the device's own, measured by gpu/device_ceilings,
// are missing, and always for the bf16 tensor-core roof, which nothing measures.
#pragma once

#include <string>
#include <vector>

#include "metrics/ceilings.hpp"

namespace memwall {

// What cudaGetDeviceProperties says, as a run records it (the "cuda." run properties).
struct GpuFigures {
    std::string name;            // "NVIDIA H100 80GB HBM3"
    int compute_capability = 0;  // 90 for sm_90
    int sms = 0;
    double sm_clock_hz = 0;       // the maximum SM clock
    double memory_bandwidth = 0;  // B/s: 2 x memory clock x bus width
};

// FP32 lanes (CUDA cores) per SM of a compute capability; 0 when not known.
int fp32_lanes_per_sm(int compute_capability);
// Dense bf16 tensor-core FLOP (float accumulation) per clock per SM; 0 when not known.
int bf16_tensor_flops_per_sm(int compute_capability);
// Dense tf32 tensor-core FLOP per clock per SM (half the bf16 rate); 0 when not known.
int tf32_tensor_flops_per_sm(int compute_capability);

// "cuda:dram" (the memory bandwidth), "cuda:fp32_fma" (SMs x FP32 lanes x 2 FLOP x SM clock,
// when the lanes are known), "cuda:bf16_tensor" and "cuda:tf32_tensor" (SMs x dense bf16 or
// tf32 FLOP per clock x SM clock, when those are known) and "cuda:l2" (when the datasheet table, device_specs, knows
// the device's L2 bandwidth), each with a method that says it is a theoretical peak and from what. Nothing for a figure
// that is missing or not positive.
std::vector<Ceiling> theoretical_gpu_ceilings(const GpuFigures& d);

}  // namespace memwall
