#pragma once

#include "core/catalogue.hpp"

namespace memwall {

// The conv family: direct, im2col_gemm, im2win and onednn on cpu; direct, im2win and
// implicit_gemm on cuda-emu and cuda; im2col_gemm (cuBLAS) and cudnn on cuda.
void register_conv(Catalogue& c);

}  // namespace memwall
