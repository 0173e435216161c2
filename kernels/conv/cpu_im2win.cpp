// im2win: the window-order transform and the blocked convolution over it (the im2win paper).
// Row y of the transformed image holds, for every padded input column w, the R input values of
// column w in rows y*stride .. y*stride + R - 1: win[n][y][c][w*R + r]. The S*R taps of output
// (y, q) are then the contiguous run starting at q*stride*R, and padding is written as zeros
// once, so no tile checks bounds. The channels of one output row lie side by side, so a tile
// walking its channels reads one block, not a row on another page for each channel. The tensor is C*P*(W + 2 pad)*R per
// image, against im2col's C*R*S*P*Q: about S/stride times smaller.
#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/conv/cpu_tiles.hpp"

namespace memwall::conv_cpu {

namespace {

struct WindowTaps {
    const ConvProblem& p;
    const float* win;
    std::int64_t rows;  // of the window tensor per image: P, worked out once

    template <int KV, int QB>
    void accumulate(const TileAt& t, vf (&acc)[QB][KV]) const {
        const std::int64_t row = (p.w + 2 * p.pad) * p.r, step = p.stride * p.r, taps = p.s * p.r;
        for (std::int64_t c = t.c0; c < t.c1; ++c) {
            const float* x = win + ((t.n * rows + t.y) * p.c + c) * row + t.q0 * step;
            const float* w = t.filter + (c - t.c0) * taps * KV * kLanes;
            // Unrolled, the taps' offsets are immediates: the loop's own counter and pointer
            // updates take no issue slots from the FMAs.
#pragma GCC unroll 4
            for (std::int64_t tap = 0; tap < taps; ++tap) {
                vf wv[KV];
                for (int j = 0; j < KV; ++j) wv[j] = simd::load(w + (tap * KV + j) * kLanes);
                for (int i = 0; i < QB; ++i) {
                    const vf xb = simd::splat(x[i * step + tap]);
                    for (int j = 0; j < KV; ++j) acc[i][j] = simd::fma(wv[j], xb, acc[i][j]);
                }
            }
        }
    }
};

}  // namespace

template <>
void conv_im2win<kit::kKernelIsa>(const ConvProblem& p, const Blocking& b, const float* input, const float* packed,
                                  float* out, float* win) {
    im2win_transform(p, input, win);
    run_tiles(p, b, packed, 4.0 * static_cast<double>(im2win_floats(p) / static_cast<std::size_t>(p.n)), out,
              WindowTaps{p, win, p.p()});
}

}  // namespace memwall::conv_cpu
MEMWALL_KERNEL_END
