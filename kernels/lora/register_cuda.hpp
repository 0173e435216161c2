#pragma once

#include "core/catalogue.hpp"
#include "kernels/lora/cuda/device_case.hpp"
#include "kernels/lora/lora.hpp"

namespace memwall {

// The CUDA lora variants (kernels/lora/cuda), added to the registered lora family: base, unfused,
// fused and multi_adapter on cuda-emu and cuda; the peer cublas_unfused on cuda only. fp32 only:
// bf16 is refused (a usage error) until a tensor-core path exists.
void register_lora_cuda(Catalogue& c);

// A point's GEMM tiling (BM, BN, BK, TM, TN).
lora_cuda::Tuning cuda_tuning(const Params& point);

// The CUDA kernels' inputs: the workload's fp32 arrays. Throws std::invalid_argument for bf16.
lora_cuda::Inputs cuda_inputs(const LoraWorkload& w);

}  // namespace memwall
