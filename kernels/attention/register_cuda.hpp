#pragma once

#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/kit/cuda_variants.hpp"

namespace memwall {
class Catalogue;
struct AttentionProblem;

// The problem as the CUDA kernels take it.
attention_cuda::Shape cuda_shape(const AttentionProblem& p);

// flash_tc's description for the kit (flash_blocksparse is flash_tc on a masked problem).
kit::CudaKernel flash_tc_kernel();

// Adds the CUDA attention variants (naive, flash, flash_tc, decode_splitkv) for the cuda-emu and cuda
// backends to the attention family; register_attention calls it.
void register_attention_cuda(Catalogue& c);

}  // namespace memwall
