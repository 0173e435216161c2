// im2col_gemm: the im2col buffer (every window unrolled into a column, C*R*S by P*Q per image),
// then OpenBLAS's sgemm (kit/openblas.hpp): the textbook lowering (Caffe, PyTorch's CPU
// fallback) im2win is measured against.
#include <algorithm>

#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/kit/openblas.hpp"

namespace memwall::conv_cpu {

std::size_t im2col_floats(const ConvProblem& p) { return static_cast<std::size_t>(p.n * p.window() * p.p() * p.q()); }

void im2col_transform(const ConvProblem& p, const float* input, float* col) {
    const std::int64_t P = p.p(), Q = p.q();
#pragma omp parallel for collapse(3) schedule(static)
    for (std::int64_t n = 0; n < p.n; ++n)
        for (std::int64_t c = 0; c < p.c; ++c)
            for (std::int64_t r = 0; r < p.r; ++r) {
                const float* image = input + (n * p.c + c) * p.h * p.w;
                for (std::int64_t s = 0; s < p.s; ++s) {
                    float* dst = col + ((n * p.c + c) * p.r * p.s + r * p.s + s) * P * Q;
                    const auto [q0, q1] = conv_valid_columns(p, s);
                    for (std::int64_t y = 0; y < P; ++y, dst += Q) {
                        const std::int64_t h = y * p.stride + r - p.pad;
                        if (h < 0 || h >= p.h) {
                            std::fill(dst, dst + Q, 0.0f);
                            continue;
                        }
                        const float* x = image + h * p.w + s - p.pad;
                        std::fill(dst, dst + q0, 0.0f);
                        for (std::int64_t q = q0; q < q1; ++q) dst[q] = x[q * p.stride];
                        std::fill(dst + q1, dst + Q, 0.0f);
                    }
                }
            }
}

void conv_im2col_gemm(const ConvProblem& p, const float* input, const float* filter, float* out, float* col) {
    const kit::openblas::Sgemm sgemm = kit::openblas::sgemm();
    im2col_transform(p, input, col);
    const auto pq = static_cast<blasint>(p.p() * p.q()), crs = static_cast<blasint>(p.window());
    for (std::int64_t n = 0; n < p.n; ++n)
        sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(p.k), pq, crs, 1.0f, filter, crs,
              col + n * crs * pq, pq, 0.0f, out + n * p.k * pq, pq);
}

}  // namespace memwall::conv_cpu
