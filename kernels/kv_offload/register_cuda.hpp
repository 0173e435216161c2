#pragma once

#include <cstdint>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/kv_offload/cuda/device_case.hpp"
#include "kernels/kv_offload/kv_offload.hpp"

namespace memwall {

// The CUDA kv_offload variants (kernels/kv_offload/cuda), added to the registered kv_offload
// family: resident, zero_copy, staged and pipelined on cuda-emu and cuda. Their slow tier is
// host memory (the problem's tier and warm axes are the CPU variants'); head_dim must be 32, 64,
// 128 or 256.
void register_kv_offload_cuda(Catalogue& c);

// A point's tuning: splits, warps, and where the variant has them misalign and chunk_pages.
kv_cuda::Tuning kv_cuda_tuning(const Params& point);

// The CUDA kernels' inputs: the workload's pages and queries, and its selections flattened
// ([steps][selected]) into `ids`, which must outlive the device case's construction.
kv_cuda::Inputs cuda_inputs(const KvWorkload& w, std::vector<std::int32_t>& ids);

}  // namespace memwall
