// What the blocked CPU convolutions (direct, im2win) share: the filter packed for vectors of
// output channels, and the loop over register tiles.
//
// A register tile is KV vectors of output channels (KV * lanes channels) by QB output columns
// of one output row: KV * QB accumulators, each input value broadcast once per tile and each
// filter vector loaded once per QB FMAs. Tiles walk an output row; input channels are taken Cb
// at a time (the filter of one step stays in L1), the partial sums going through the output.
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
constexpr int lanes = simd::lanes;
constexpr int max_accumulators = conv_cpu::max_accumulators(kit::kernel_isa);
static_assert(lanes == conv_cpu::lanes(kit::kernel_isa));

// One tile's coordinates for an accumulation: image n, output row y, first column q0, input
// channels [c0, c1), and the packed filter of its k tile at channel c0: KV vectors per tap,
// contiguous (blocking.hpp's layout), so tap t of channel c0 + i is at (i * R * S + t) * KV * lanes.
struct TileAt {
    std::int64_t n, y, q0, c0, c1;
    const float* filter;
};

// Runs the tiles of the whole convolution. Taps::accumulate<KV, QB>(const TileAt&, vf (&)[QB][KV])
// adds the tile's taps over its channels to the accumulators.
// `source_image_bytes`: what the taps read per image (the input, or the window tensor).
template <class Taps>
void run_tiles(const ConvProblem& p, const Blocking& b, const float* packed, double source_image_bytes, float* out,
               const Taps& taps);

// Stores a tile's accumulators to out[n][k][y][q0 + i] for the channels below K (a transpose:
// a vector holds channels, the output is contiguous in q); `add` adds the partial sums there.
template <int KV, int QB>
inline void store_tile(const ConvProblem& p, std::int64_t n, std::int64_t k0, std::int64_t y, std::int64_t q0,
                       vf (&acc)[QB][KV], float* out, bool add) {
    const std::int64_t P = p.p(), Q = p.q();
    alignas(64) float t[KV][QB][lanes];
    for (int i = 0; i < QB; ++i)
        for (int j = 0; j < KV; ++j) simd::store(t[j][i], acc[i][j]);
    for (int j = 0; j < KV; ++j)
        for (int l = 0; l < lanes; ++l) {
            const std::int64_t k = k0 + j * lanes + l;
            if (k >= p.k) return;
            float* o = out + ((n * p.k + k) * P + y) * Q + q0;
            if (add)
                for (int i = 0; i < QB; ++i) o[i] += t[j][i][l];
            else
                for (int i = 0; i < QB; ++i) o[i] = t[j][i][l];
        }
}

namespace detail {

template <class Taps, int KV, int QB>
void tile(const ConvProblem& p, const TileAt& at, std::int64_t k0, float* out, const Taps& taps) {
    vf acc[QB][KV];
    for (int i = 0; i < QB; ++i)
        for (int j = 0; j < KV; ++j) acc[i][j] = vf{};
    taps.template accumulate<KV, QB>(at, acc);
    store_tile<KV, QB>(p, at.n, k0, at.y, at.q0, acc, out, at.c0 > 0);
}

template <class Taps>
using TileFn = void (*)(const ConvProblem&, const TileAt&, std::int64_t, float*, const Taps&);

// tiles[KV - 1][QB - 1]: the instantiations within the register budget.
template <class Taps, int KV, int... QB>
constexpr auto row_of(std::integer_sequence<int, QB...>) {
    return std::array<TileFn<Taps>, sizeof...(QB)>{
        (KV * (QB + 1) <= max_accumulators ? &tile<Taps, KV, (KV * (QB + 1) <= max_accumulators ? QB + 1 : 1)>
                                           : nullptr)...};
}

template <class Taps>
constexpr auto table() {
    constexpr auto seq = std::make_integer_sequence<int, max_accumulators>{};
    return std::array{row_of<Taps, 1>(seq), row_of<Taps, 2>(seq), row_of<Taps, 3>(seq)};
}

}  // namespace detail

template <class Taps>
void run_tiles(const ConvProblem& p, const Blocking& b, const float* packed, double source_image_bytes, float* out,
               const Taps& taps) {
    static constexpr auto tiles = detail::table<Taps>();
    const std::int64_t P = p.p();
    const ColumnTiles columns = column_tiles(p.q(), b.wb);
    const std::int64_t ktiles = (p.k + b.kb - 1) / b.kb;
    auto row = [&](std::int64_t n, std::int64_t kt, std::int64_t y) {
        const std::int64_t k0 = kt * b.kb;
        const int kv = static_cast<int>(std::min<std::int64_t>(b.kb, p.k - k0) + lanes - 1) / lanes;
        const std::int64_t rs = p.r * p.s;
        const float* filter = packed + static_cast<std::size_t>(k0 * p.c * rs);  // the k tiles before are whole
        for (std::int64_t c0 = 0; c0 < p.c; c0 += b.cb) {
            const std::int64_t c1 = std::min<std::int64_t>(p.c, c0 + b.cb);
            for (std::int64_t t = 0, q0 = 0; t < columns.count; ++t) {
                const int qb = static_cast<int>(columns.width + (t < columns.wider ? 1 : 0));
                const TileAt at{n, y, q0, c0, c1, filter + static_cast<std::size_t>(c0 * rs * kv * lanes)};
                tiles[static_cast<std::size_t>(kv - 1)][static_cast<std::size_t>(qb - 1)](p, at, k0, out, taps);
                q0 += qb;
            }
        }
    };
    if (k_tiles_innermost(p, kit::kernel_isa, source_image_bytes)) {
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
