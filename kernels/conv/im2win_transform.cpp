// im2win's window-order transform (cpu_im2win.cpp has the layout): a copy, the same for every ISA.
#include <algorithm>
#include <vector>

#include "kernels/conv/cpu_kernels.hpp"

namespace memwall::conv_cpu {

namespace {

// dst[w * R + r] = rows[r][w]: written in order, the R rows read side by side. A filter height
// known at compile time lets the compiler interleave the rows in vector registers, where a
// run-time R leaves a scalar copy (2.4x slower for R = 3).
template <int R>
void interleave(const float* const* rows, std::int64_t w, float* dst) {
    for (std::int64_t i = 0; i < w; ++i)
        for (int r = 0; r < R; ++r) dst[i * R + r] = rows[r][i];
}

void interleave(const float* const* rows, std::int64_t r_count, std::int64_t w, float* dst) {
    switch (r_count) {
        // The im2win paper's filter heights.
        case 3: return interleave<3>(rows, w, dst);
        case 5: return interleave<5>(rows, w, dst);
        case 7: return interleave<7>(rows, w, dst);
        case 11: return interleave<11>(rows, w, dst);
        default:
            for (std::int64_t i = 0; i < w; ++i)
                for (std::int64_t r = 0; r < r_count; ++r) dst[i * r_count + r] = rows[r][i];
    }
}

}  // namespace

std::size_t im2win_floats(const ConvProblem& p) {
    return static_cast<std::size_t>(p.n * p.c * p.p() * (p.w + 2 * p.pad) * p.r);
}

void im2win_transform(const ConvProblem& p, const float* input, float* win) {
    const std::int64_t P = p.p(), wp = p.w + 2 * p.pad, row = wp * p.r;
    const std::vector<float> zeros(static_cast<std::size_t>(p.w), 0.0f);  // a row in the padding
#pragma omp parallel
    {
        std::vector<const float*> rows(static_cast<std::size_t>(p.r));
#pragma omp for collapse(3) schedule(static)
        for (std::int64_t n = 0; n < p.n; ++n)
            for (std::int64_t y = 0; y < P; ++y)
                for (std::int64_t c = 0; c < p.c; ++c) {
                    float* dst = win + ((n * P + y) * p.c + c) * row;
                    const float* image = input + (n * p.c + c) * p.h * p.w;
                    for (std::int64_t r = 0; r < p.r; ++r) {
                        const std::int64_t h = y * p.stride + r - p.pad;
                        rows[static_cast<std::size_t>(r)] = h >= 0 && h < p.h ? image + h * p.w : zeros.data();
                    }
                    // Columns in the padding are zeros.
                    std::fill(dst, dst + p.pad * p.r, 0.0f);
                    interleave(rows.data(), p.r, p.w, dst + p.pad * p.r);
                    std::fill(dst + (p.pad + p.w) * p.r, dst + row, 0.0f);
                }
    }
}

}  // namespace memwall::conv_cpu
