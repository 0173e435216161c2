// OpenBLAS's GEMMs for the CPU kernels (conv's im2col_gemm, lora's GEMMs and its float64
// reference), opened at the first call rather than linked: OpenBLAS's start-up allocates a
// 128 MiB buffer pool and retries forever when that fails, so linked it would hang every memwall
// process, case workers under a --case-memory limit included, before main. OpenBLAS threads with
// OpenMP, like memwall's own kernels.
#pragma once

#include <cblas.h>

namespace memwall::kit::openblas {

using Sgemm = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, float, const float*,
                       blasint, const float*, blasint, float, float*, blasint);
using Dgemm = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, double, const double*,
                       blasint, const double*, blasint, double, double*, blasint);

// cblas_sgemm and cblas_dgemm; the first call loads the library. Throw std::runtime_error, naming
// the library, when it cannot be loaded or lacks the function.
Sgemm sgemm();
Dgemm dgemm();

}  // namespace memwall::kit::openblas
