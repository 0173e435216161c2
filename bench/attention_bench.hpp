// What the CPU attention benches share: the median of repeated timings, and the flash tiles a
// default sweep uses, so a bench times flash as `memwall run` does.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <variant>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/register.hpp"

namespace memwall::attention_bench {

// Median seconds of `reps` runs of `f`.
template <class F>
double median_seconds(int reps, F&& f) {
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// The flash tiles a default sweep uses (the catalogue's single default of Br and Bc).
inline FlashTiles default_flash_tiles() {
    Catalogue c;
    register_attention(c);
    FlashTiles t;
    for (const Axis& a : c.variant("attention", "flash", Backend::cpu).tunables)
        (a.name == "Br" ? t.br : t.bc) = static_cast<int>(std::get<std::int64_t>(a.defaults.front()));
    return t;
}

}  // namespace memwall::attention_bench
