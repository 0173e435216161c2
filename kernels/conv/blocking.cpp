// The blocking of the tiled CPU convolutions and their packed filter.
#include "kernels/conv/blocking.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace memwall::conv_cpu {

Blocking blocking_of(const Params& point) {
    return {static_cast<int>(point.integer("Kb")), static_cast<int>(point.integer("Wb")),
            static_cast<int>(point.integer("Cb"))};
}

void validate(const Blocking& b, Isa isa) {
    const int lanes = conv_cpu::lanes(isa), max_accumulators = conv_cpu::max_accumulators(isa);
    if (b.kb < lanes || b.kb > kMaxKv * lanes || b.kb % lanes != 0)
        throw UsageError("conv: Kb must be " + std::to_string(lanes) + ", " + std::to_string(2 * lanes) + " or " +
                         std::to_string(3 * lanes) + " (whole vectors of output channels), got " +
                         std::to_string(b.kb));
    if (b.wb < 1 || (b.kb / lanes) * b.wb > max_accumulators)
        throw UsageError("conv: Kb/" + std::to_string(lanes) + " * Wb must be at most " +
                         std::to_string(max_accumulators) + " accumulators, got Kb=" + std::to_string(b.kb) +
                         " Wb=" + std::to_string(b.wb));
    if (b.cb < 1) throw UsageError("conv: Cb must be at least 1");
}

std::vector<Constraint> blocking_constraints(Isa isa) {
    const int lanes = conv_cpu::lanes(isa), max_accumulators = conv_cpu::max_accumulators(isa);
    return {
        {"Kb is " + std::to_string(lanes) + ", " + std::to_string(2 * lanes) + " or " + std::to_string(3 * lanes) +
             " (whole vectors of output channels)",
         [lanes](const Params& p) {
             const auto kb = p.integer("Kb");
             return kb % lanes == 0 && kb >= lanes && kb <= kMaxKv * lanes;
         }},
        {"Kb/" + std::to_string(lanes) + " * Wb is at most " + std::to_string(max_accumulators) +
             " (the accumulators fit in the vector registers)",
         [lanes, max_accumulators](const Params& p) {
             return p.integer("Kb") / lanes * p.integer("Wb") <= max_accumulators;
         }},
        // Steps past C all take every channel: one of them (the default) is enough for a tuner.
        {"Cb is at most C, or the default " + std::to_string(default_blocking(isa).cb) +
             " (every channel of a smaller layer)",
         [cb = default_blocking(isa).cb](const Params& p) {
             return p.integer("Cb") <= p.integer("C") || p.integer("Cb") == cb;
         }},
    };
}

ColumnTiles column_tiles(std::int64_t q, int wb) {
    const std::int64_t count = (q + wb - 1) / wb;
    return {count, q / count, q % count};
}

bool k_tiles_innermost(const ConvProblem& p, Isa isa, double source_image_bytes) {
    return 4.0 * static_cast<double>(packed_filter_floats(p, isa)) <= source_image_bytes;
}

std::size_t packed_filter_floats(const ConvProblem& p, Isa isa) {
    const std::int64_t lanes = conv_cpu::lanes(isa);
    const std::int64_t vectors = (p.k + lanes - 1) / lanes;
    return static_cast<std::size_t>(vectors * p.c * p.r * p.s * lanes);
}

void pack_filter(const ConvProblem& p, Isa isa, int kb, const float* filter, float* packed) {
    const std::int64_t lanes = conv_cpu::lanes(isa);
    for (std::int64_t k0 = 0; k0 < p.k; k0 += kb) {
        const std::int64_t width = (std::min<std::int64_t>(kb, p.k - k0) + lanes - 1) / lanes * lanes;
        for (std::int64_t c = 0; c < p.c; ++c)
            for (std::int64_t s = 0; s < p.s; ++s)
                for (std::int64_t r = 0; r < p.r; ++r)
                    for (std::int64_t l = 0; l < width; ++l) {
                        const std::int64_t k = k0 + l;
                        *packed++ = k < p.k ? filter[((k * p.c + c) * p.r + r) * p.s + s] : 0.0f;
                    }
    }
}

}  // namespace memwall::conv_cpu
