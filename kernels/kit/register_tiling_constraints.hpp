// The constraints a register-tiled GEMM's tunables BM, BN, TM and TN keep (register_tiling.hpp),
// as the families that register such a kernel (conv's implicit_gemm, lora's GEMMs) state them, so
// the tuner never proposes a tiling their device cases refuse.
#pragma once

#include <vector>

#include "core/space.hpp"
#include "kernels/kit/register_tiling.hpp"

namespace memwall::kit {

inline std::vector<Constraint> register_tiling_constraints() {
    const auto tile = [](const Params& p, const char* name) { return static_cast<int>(p.integer(name)); };
    return {
        {"TM and TN are 1, 2, 4 or 8",
         [tile](const Params& p) { return register_tile(tile(p, "TM")) && register_tile(tile(p, "TN")); }},
        {"BM and BN are multiples of TM and TN",
         [](const Params& p) {
             return p.integer("BM") % p.integer("TM") == 0 && p.integer("BN") % p.integer("TN") == 0;
         }},
        {"(BM/TM) * (BN/TN) threads are whole warps, at most 1024 (512 when TM*TN is 32, 256 when 64: the "
         "accumulators stay in registers)",
         [tile](const Params& p) {
             const int tm = tile(p, "TM"), tn = tile(p, "TN");
             const int threads = register_tiled_threads(tile(p, "BM"), tile(p, "BN"), tm, tn);
             return threads % 32 == 0 && threads <= register_tiled_max_threads(tm, tn);
         }},
    };
}

}  // namespace memwall::kit
