// im2win's window-order transform (cpu_im2win.cpp has the layout): a copy, the same for every ISA.
#include <algorithm>

#include "kernels/conv/cpu_kernels.hpp"

namespace memwall::conv_cpu {

std::size_t im2win_floats(const ConvProblem& p) {
    return static_cast<std::size_t>(p.n * p.c * p.p() * (p.w + 2 * p.pad) * p.r);
}

void im2win_transform(const ConvProblem& p, const float* input, float* win) {
    const std::int64_t P = p.p(), wp = p.w + 2 * p.pad, row = wp * p.r;
#pragma omp parallel for collapse(3) schedule(static)
    for (std::int64_t n = 0; n < p.n; ++n)
        for (std::int64_t c = 0; c < p.c; ++c)
            for (std::int64_t y = 0; y < P; ++y) {
                float* dst = win + ((n * p.c + c) * P + y) * row;
                const float* image = input + (n * p.c + c) * p.h * p.w;
                // Written in order, column by column; rows in the padding read as zeros.
                std::fill(dst, dst + p.pad * p.r, 0.0f);
                dst += p.pad * p.r;
                for (std::int64_t r = 0; r < p.r; ++r) {
                    const std::int64_t h = y * p.stride + r - p.pad;
                    if (h >= 0 && h < p.h) {
                        const float* x = image + h * p.w;
                        for (std::int64_t w = 0; w < p.w; ++w) dst[w * p.r + r] = x[w];
                    } else {
                        for (std::int64_t w = 0; w < p.w; ++w) dst[w * p.r + r] = 0.0f;
                    }
                }
                std::fill(dst + p.w * p.r, dst + (p.w + p.pad) * p.r, 0.0f);
            }
}

}  // namespace memwall::conv_cpu
