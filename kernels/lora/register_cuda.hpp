#pragma once

#include "core/catalogue.hpp"
#include "kernels/lora/cuda/device_case.hpp"
#include "kernels/lora/lora.hpp"

namespace memwall {

// The CUDA lora variants (kernels/lora/cuda), added to the registered lora family: base, unfused,
// fused and multi_adapter on cuda-emu and cuda, fp32 and bf16 (bf16 storage, float FMA
// arithmetic), and their bf16 tensor-core versions (*_tc); the peer cublas_unfused on cuda only
// (its bf16 GEMMs on tensor cores).
void register_lora_cuda(Catalogue& c);

// A point's GEMM tiling (BM, BN, BK, TM, TN).
lora_cuda::Tuning cuda_tuning(const Params& point);
// A *_tc point's tile (BM, BN, warps, stages) and group.
lora_cuda::TcTuning tc_tuning(const Params& point);

// The CUDA kernels' inputs: the workload's float arrays (exact bf16 values for bf16 problems),
// which the device cases upload in their element type.
lora_cuda::Inputs cuda_inputs(const LoraWorkload& w);

// The check of a CUDA case's Y as it downloads (DeviceCase::download: floats, a bf16 Y widened).
Check check_cuda_output(const LoraWorkload& w, const float* y, bool base_only);

}  // namespace memwall
