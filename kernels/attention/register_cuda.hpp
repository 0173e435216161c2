#pragma once

#include "kernels/attention/cuda/device_case.hpp"

namespace memwall {
class Catalogue;
struct AttentionProblem;

// The problem as the CUDA kernels take it.
attention_cuda::Shape cuda_shape(const AttentionProblem& p);

// Adds the CUDA attention variants (naive, flash, flash_tc, decode_splitkv) for the cuda-emu and cuda
// backends to the attention family; register_attention calls it.
void register_attention_cuda(Catalogue& c);

}  // namespace memwall
