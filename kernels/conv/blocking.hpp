// The blocking of the tiled CPU convolutions (direct, im2win): the tunables, their rules, and
// the filter packed for vectors of output channels.
#pragma once

#include <cstddef>
#include <vector>

#include "core/space.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/kit/simd.hpp"

namespace memwall::conv_cpu {

namespace simd = kit::simd;
using simd::vf;
inline constexpr int lanes = simd::lanes;
inline constexpr int max_kv = 3;  // vectors of output channels per tile
// Accumulators a tile may hold: the rest of the registers keep KV filter vectors and a broadcast.
inline constexpr int max_accumulators = simd::registers - max_kv - 1;

// The tunables: output channels (Kb, a multiple of the vector width), output columns (Wb) and
// input channels per step (Cb).
struct Blocking {
    int kb = 2 * lanes;
    int wb = max_accumulators / 2;
    int cb = 64;
};
Blocking blocking_of(const Params& point);
// Throws UsageError when a blocking breaks the register budget or is not positive.
void validate(const Blocking& b);
std::vector<Constraint> blocking_constraints();

// The filter as [K / lanes][C][S][R][lanes] (zero-filled past K): the lanes of one output
// channel vector for one tap are contiguous, taps in window order (s, then r).
std::size_t packed_filter_floats(const ConvProblem& p);
void pack_filter(const ConvProblem& p, const float* filter, float* packed);

}  // namespace memwall::conv_cpu
