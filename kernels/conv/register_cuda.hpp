#pragma once

#include "core/catalogue.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/conv/cuda/device_case.hpp"

namespace memwall {

// The CUDA conv variants (kernels/conv/cuda), added to the registered conv family: direct, im2win
// and implicit_gemm on cuda-emu and cuda; im2col_gemm (cuBLAS) and cudnn on cuda only.
void register_conv_cuda(Catalogue& c);

// "dtype is fp32": the constraint of every variant but the tensor-core ones.
Constraint conv_fp32_only();

// The problem as the CUDA kernels take it.
conv_cuda::Shape cuda_shape(const ConvProblem& p);

// A point's tuning of `algorithm`: its tunable axes (none for im2col_gemm and cudnn).
conv_cuda::Tuning cuda_tuning(conv_cuda::Algorithm algorithm, const Params& point);

}  // namespace memwall
