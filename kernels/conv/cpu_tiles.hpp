// What the blocked CPU convolutions (direct, im2win) share: the loop over register tiles of the
// filter packed per k tile (blocking.hpp), and the tiles' store.
//
// A register tile is KV vectors of output channels (KV * kLanes channels) by QB output columns
// of one output row: KV * QB accumulators, each input value broadcast once per tile and each
// filter vector loaded once per QB FMAs. Tiles walk an output row; input channels are taken Cb
// at a time (a step's filter and input rows share L1), the partial sums going through the output.
// Only the innermost accumulation differs between the variants: where a tap's input comes from.
// Kernel code: included by ISA sources after kit/kernel_isa.hpp, inside MEMWALL_KERNEL_BEGIN; its
// anonymous namespace keeps each ISA's tiles to its own compile.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/conv/blocking.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/kit/kernel_isa.hpp"
#include "kernels/kit/simd.hpp"

namespace memwall::conv_cpu {
namespace {

namespace simd = kit::simd;
using simd::vf;
constexpr int kLanes = simd::lanes;
constexpr int kMaxAccumulators = conv_cpu::max_accumulators(kit::kKernelIsa);
static_assert(kLanes == conv_cpu::lanes(kit::kKernelIsa));

// One tile: image n, output row y, first column q0, input channels [c0, c1), and the packed
// filter of its k tile at channel c0: KV vectors per tap, contiguous (blocking.hpp's layout), so
// tap t of channel c0 + i is at (i * R * S + t) * KV * kLanes. Its output: `out` at its first
// channel's (y, q0), `plane` (P * Q) floats between channels, the first `channels` below K. All
// worked out once per row, not per tile: P and Q are divisions.
struct TileAt {
    std::int64_t n, y, q0, c0, c1;
    const float* filter;
    float* out;
    std::int64_t plane;
    int channels;
};

// Runs the tiles of the whole convolution. Taps::accumulate<KV, QB>(const TileAt&, vf (&)[QB][KV])
// adds the tile's taps over its channels to the accumulators.
// `source_image_bytes`: what the taps read per image (the input, or the window tensor).
template <class Taps>
void run_tiles(const ConvProblem& p, const Blocking& b, const float* packed, double source_image_bytes, float* out,
               const Taps& taps);

// Transposes 8 x 8 floats in registers: v[l][m] becomes v[m][l].
inline void transpose8(__m256 (&v)[8]) {
    __m256 t[8], u[8];
    for (int m = 0; m < 8; m += 2) {
        t[m] = _mm256_unpacklo_ps(v[m], v[m + 1]);
        t[m + 1] = _mm256_unpackhi_ps(v[m], v[m + 1]);
    }
    for (int m = 0; m < 8; m += 4) {
        u[m] = _mm256_shuffle_ps(t[m], t[m + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[m + 1] = _mm256_shuffle_ps(t[m], t[m + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[m + 2] = _mm256_shuffle_ps(t[m + 1], t[m + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[m + 3] = _mm256_shuffle_ps(t[m + 1], t[m + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int m = 0; m < 4; ++m) {
        v[m] = _mm256_permute2f128_ps(u[m], u[m + 4], 0x20);
        v[m + 4] = _mm256_permute2f128_ps(u[m], u[m + 4], 0x31);
    }
}

// Stores a tile's accumulators to out[n][k][y][q0 + i] for the channels below K; `add` adds the
// partial sums there. A vector holds channels and the output is contiguous in q, so each 8
// channels by 8 columns are transposed in registers and stored a channel's columns at a time:
// element by element, the store took as long as the FMAs of a layer with few taps (conv7's 27).
template <int KV, int QB>
inline void store_tile(const TileAt& at, vf (&acc)[QB][KV], bool add) {
    constexpr int halves = kLanes / 8;  // 8-channel halves of a vector
    const __m256i column = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int j = 0; j < KV; ++j)
        for (int h = 0; h < halves; ++h) {
            const int first = j * kLanes + h * 8;
            if (first >= at.channels) return;
            const int channels = std::min(8, at.channels - first);
            float* const out = at.out + first * at.plane;
            for (int g = 0; g < QB; g += 8) {
                __m256 v[8];
                for (int m = 0; m < 8; ++m) {
                    if (g + m < QB) {
                        __m256 part[halves];
                        std::memcpy(part, &acc[g + m][j], sizeof part);
                        v[m] = part[h];
                    } else {
                        v[m] = _mm256_setzero_ps();
                    }
                }
                transpose8(v);
                const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(std::min(8, QB - g)), column);
                for (int l = 0; l < channels; ++l) {
                    float* o = out + l * at.plane + g;
                    const __m256 r = add ? _mm256_add_ps(v[l], _mm256_maskload_ps(o, mask)) : v[l];
                    _mm256_maskstore_ps(o, mask, r);
                }
            }
        }
}

namespace detail {

template <class Taps, int KV, int QB>
void tile(const TileAt& at, const Taps& taps) {
    vf acc[QB][KV];
    for (int i = 0; i < QB; ++i)
        for (int j = 0; j < KV; ++j) acc[i][j] = vf{};
    taps.template accumulate<KV, QB>(at, acc);
    store_tile<KV, QB>(at, acc, at.c0 > 0);
}

template <class Taps>
using TileFn = void (*)(const TileAt&, const Taps&);

// kTiles[KV - 1][QB - 1]: the instantiations within the register budget.
template <class Taps, int KV, int... QB>
constexpr auto row_of(std::integer_sequence<int, QB...>) {
    return std::array<TileFn<Taps>, sizeof...(QB)>{
        (KV * (QB + 1) <= kMaxAccumulators ? &tile<Taps, KV, (KV * (QB + 1) <= kMaxAccumulators ? QB + 1 : 1)>
                                           : nullptr)...};
}

template <class Taps>
constexpr auto table() {
    constexpr auto seq = std::make_integer_sequence<int, kMaxAccumulators>{};
    return std::array{row_of<Taps, 1>(seq), row_of<Taps, 2>(seq), row_of<Taps, 3>(seq)};
}

}  // namespace detail

template <class Taps>
void run_tiles(const ConvProblem& p, const Blocking& b, const float* packed, double source_image_bytes, float* out,
               const Taps& taps) {
    static constexpr auto kTiles = detail::table<Taps>();
    const std::int64_t P = p.p(), Q = p.q();
    const ColumnTiles columns = column_tiles(Q, b.wb);
    const std::int64_t ktiles = (p.k + b.kb - 1) / b.kb;
    auto row = [&](std::int64_t n, std::int64_t kt, std::int64_t y) {
        const std::int64_t k0 = kt * b.kb;
        const int channels = static_cast<int>(std::min<std::int64_t>(b.kb, p.k - k0));
        const int kv = (channels + kLanes - 1) / kLanes;
        float* const row_out = out + ((n * p.k + k0) * P + y) * Q;
        const std::int64_t rs = p.r * p.s;
        const float* filter = packed + static_cast<std::size_t>(k0 * p.c * rs);  // the k tiles before are whole
        for (std::int64_t c0 = 0; c0 < p.c; c0 += b.cb) {
            const std::int64_t c1 = std::min<std::int64_t>(p.c, c0 + b.cb);
            for (std::int64_t t = 0, q0 = 0; t < columns.count; ++t) {
                const int qb = static_cast<int>(columns.width + (t < columns.wider ? 1 : 0));
                const TileAt at{
                    n,     y,       q0, c0, c1, filter + static_cast<std::size_t>(c0 * rs * kv * kLanes), row_out + q0,
                    P * Q, channels};
                kTiles[static_cast<std::size_t>(kv - 1)][static_cast<std::size_t>(qb - 1)](at, taps);
                q0 += qb;
            }
        }
    };
    if (k_tiles_innermost(p, kit::kKernelIsa, source_image_bytes)) {
#pragma omp parallel for collapse(2) schedule(static)
        for (std::int64_t n = 0; n < p.n; ++n)
            for (std::int64_t y = 0; y < P; ++y)
                for (std::int64_t kt = 0; kt < ktiles; ++kt) row(n, kt, y);
    } else {
#pragma omp parallel for collapse(3) schedule(static)
        for (std::int64_t n = 0; n < p.n; ++n)
            for (std::int64_t kt = 0; kt < ktiles; ++kt)
                for (std::int64_t y = 0; y < P; ++y) row(n, kt, y);
    }
}

}  // namespace
}  // namespace memwall::conv_cpu
