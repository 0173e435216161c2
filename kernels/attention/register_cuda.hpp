#pragma once

#include <optional>

#include "kernels/attention/cuda/gpu.hpp"

namespace memwall {
class Catalogue;
struct AttentionProblem;

// The problem as the CUDA kernels take it.
attention_cuda::Shape cuda_shape(const AttentionProblem& p);

// Adds the CUDA attention variants (naive, flash, decode_splitkv) for the cuda-emu and cuda
// backends to the attention family, which register_attention must have added.
void register_attention_cuda(Catalogue& c);

// The CUDA device `device` as the cuda backend would run on it, for recording with a run;
// nullopt when memwall was built without CUDA or the device cannot be queried (no driver, no
// device). Throws nothing.
std::optional<attention_cuda::DeviceProperties> cuda_device_properties(int device = 0);

}  // namespace memwall
