// direct: the blocked direct convolution. Register tiles of output channels by output columns
// (cpu_tiles.hpp) read their taps straight from the NCHW input: no workspace beyond the packed
// filter. Tiles whose taps reach into the padding take the bounds-checked path.
#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/conv/cpu_tiles.hpp"

namespace memwall::conv_cpu {

namespace {

struct DirectTaps {
    const ConvProblem& p;
    const float* input;

    template <int KV, int QB>
    void accumulate(const TileAt& t, vf (&acc)[QB][KV]) const {
        const std::int64_t first = t.q0 * p.stride - p.pad;
        const bool inside = first >= 0 && (t.q0 + QB - 1) * p.stride + p.s - 1 - p.pad < p.w;
        if (inside)
            taps<KV, QB, false>(t, acc);
        else
            taps<KV, QB, true>(t, acc);
    }

    template <int KV, int QB, bool Checked>
    void taps(const TileAt& t, vf (&acc)[QB][KV]) const {
        const std::int64_t st = p.stride, first = t.q0 * st - p.pad;
        for (std::int64_t c = t.c0; c < t.c1; ++c) {
            const float* wc = t.filter + (c - t.c0) * p.r * p.s * KV * kLanes;
            for (std::int64_t r = 0; r < p.r; ++r) {
                const std::int64_t row = t.y * st + r - p.pad;
                if (row < 0 || row >= p.h) continue;
                const float* x = input + ((t.n * p.c + c) * p.h + row) * p.w;
                for (std::int64_t s = 0; s < p.s; ++s) {
                    const float* w = wc + (s * p.r + r) * KV * kLanes;
                    vf wv[KV];
                    for (int j = 0; j < KV; ++j) wv[j] = simd::load(w + j * kLanes);
                    for (int i = 0; i < QB; ++i) {
                        const std::int64_t col = first + i * st + s;
                        const float v = Checked ? (col >= 0 && col < p.w ? x[col] : 0.0f) : x[col];
                        const vf xb = simd::splat(v);
                        for (int j = 0; j < KV; ++j) acc[i][j] = simd::fma(wv[j], xb, acc[i][j]);
                    }
                }
            }
        }
    }
};

}  // namespace

template <>
void conv_direct<kit::kKernelIsa>(const ConvProblem& p, const Blocking& b, const float* input, const float* packed,
                                  float* out) {
    run_tiles(p, b, packed, 4.0 * static_cast<double>(p.c * p.h * p.w), out, DirectTaps{p, input});
}

}  // namespace memwall::conv_cpu
MEMWALL_KERNEL_END
