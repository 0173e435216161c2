// The blocking of the tiled CPU convolutions (direct, im2win): the tunables, their rules, a
// row's column tiles, the tiles' loop order and the filter packed per k tile. Each follows the
// ISA the kernels run at (core/isa.hpp): its vector width and its registers (16 with AVX2, 32
// with AVX-512).
#pragma once

#include <cstddef>
#include <vector>

#include "core/isa.hpp"
#include "core/space.hpp"
#include "kernels/conv/conv.hpp"

namespace memwall::conv_cpu {

inline constexpr int kMaxKv = 3;  // vectors of output channels per tile
// Floats per vector.
constexpr int lanes(Isa isa) { return isa == Isa::avx512 ? 16 : 8; }
// Accumulators a tile may hold: the rest of the registers keep KV filter vectors and a broadcast.
constexpr int max_accumulators(Isa isa) { return (isa == Isa::avx512 ? 32 : 16) - kMaxKv - 1; }

// The tunables: output channels (Kb, a multiple of the vector width), output columns (Wb) and
// input channels per step (Cb).
struct Blocking {
    int kb = 0;
    int wb = 0;
    int cb = 0;
};
// Two vectors of channels by half the accumulators in columns: 16 x 6 with AVX2, 32 x 14 with
// AVX-512; 32 channels a step, so a step's filter for a 3x3 layer (Kb x Cb x 9 taps x 4 bytes,
// 18 or 36 KiB) and its window rows share a 48 KiB L1 better than at 64 (conv8 and conv9 8-15%
// faster, measured side by side on both ISAs).
constexpr Blocking default_blocking(Isa isa) { return {2 * lanes(isa), max_accumulators(isa) / 2, 32}; }
Blocking blocking_of(const Params& point);
// Throws UsageError when a blocking breaks the ISA's register budget or is not positive.
void validate(const Blocking& b, Isa isa);
std::vector<Constraint> blocking_constraints(Isa isa);

// An output row in tiles of at most Wb columns, as even as they go: `count` tiles, the first
// `wider` of them width + 1 columns, the rest `width`. A narrow last tile (Q = 26 at Wb = 6 would
// end in 2 columns) holds too few accumulators to cover the FMA latency and ran at half speed.
struct ColumnTiles {
    std::int64_t count, width, wider;
};
ColumnTiles column_tiles(std::int64_t q, int wb);

// The tiles' loop order (cpu_tiles.hpp), which the byte models follow: whichever of the packed
// filter and one image's source (the input, or the window tensor; `source_image_bytes`) is
// smaller is the one read again. True: k tiles innermost, so a row's source stays in cache for
// every k tile and the whole filter is read again for every row; false: rows innermost, so a k
// tile's filter stays for every row and the source is read again for every k tile.
bool k_tiles_innermost(const ConvProblem& p, Isa isa, double source_image_bytes);

// The filter as [K / Kb][C][S][R][Kb] (the last k tile as many whole vectors as it needs,
// zero-filled past K): a tile's filter vectors for one tap are contiguous, one stream of taps in
// window order (s, then r) per k tile, as oneDNN's Ohwi<Kb>o.
std::size_t packed_filter_floats(const ConvProblem& p, Isa isa);
void pack_filter(const ConvProblem& p, Isa isa, int kb, const float* filter, float* packed);

}  // namespace memwall::conv_cpu
