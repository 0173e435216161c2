// What the lora tests share: a problem point, the family's catalogue, and a float64 LoRA
// computed here element by element, independently of the workload's dgemm reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/lora/lora.hpp"
#include "kernels/lora/register.hpp"
#include "tests/support/builtin_catalogue.hpp"

namespace memwall::lora_test {

struct Shape {
    std::int64_t m, k, n, r, adapters;
    double dropout = 0.1, alpha = 16;
    std::string dtype = "fp32";
};

inline Params point_of(const Shape& s) {
    Params p;
    p.set("shape", std::string("custom"));
    p.set("M", s.m);
    p.set("K", s.k);
    p.set("N", s.n);
    p.set("r", s.r);
    p.set("adapters", s.adapters);
    p.set("dropout", s.dropout);
    p.set("alpha", s.alpha);
    p.set("dtype", s.dtype);
    p.set("tile_m", std::int64_t{64});
    p.set("tile_n", std::int64_t{512});
    return p;
}

inline const Catalogue& catalogue() { return testing::registered_catalogue<register_lora>(); }

// A fp32 problem with LoRAFusion's dropout and α (the CUDA tests' sizes).
inline LoraProblem problem(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t adapters) {
    return LoraProblem::from(point_of({m, k, n, r, adapters}));
}

inline std::string label(const LoraProblem& p) {
    return "M" + std::to_string(p.m) + " K" + std::to_string(p.k) + " N" + std::to_string(p.n) + " r" +
           std::to_string(p.r) + " adapters " + std::to_string(p.adapters);
}

// Y by the definition: token t's adapter is the a with segment_begin(a) <= t < segment_begin(a+1).
inline std::vector<double> naive_lora(const LoraWorkload& w, bool base_only) {
    const LoraProblem& p = w.problem();
    std::vector<double> y(static_cast<std::size_t>(p.m * p.n));
    for (std::int64_t t = 0; t < p.m; ++t) {
        std::int64_t a = 0;
        while (p.segment_begin(a + 1) <= t) ++a;
        std::vector<double> s(static_cast<std::size_t>(p.r), 0.0);
        for (std::int64_t k = 0; k < p.k; ++k) {
            const bool kept = (w.mask()[t * p.mask_words() + k / 32] >> (k % 32)) & 1u;
            if (kept)
                for (std::int64_t j = 0; j < p.r; ++j)
                    s[static_cast<std::size_t>(j)] +=
                        double{w.x()[t * p.k + k]} * w.a(a)[k * p.r + j] / (1.0 - p.dropout);
        }
        for (std::int64_t n = 0; n < p.n; ++n) {
            double v = 0;
            for (std::int64_t k = 0; k < p.k; ++k) v += double{w.x()[t * p.k + k]} * w.w()[k * p.n + n];
            if (!base_only)
                for (std::int64_t j = 0; j < p.r; ++j)
                    v += p.alpha * s[static_cast<std::size_t>(j)] * w.b(a)[j * p.n + n];
            y[static_cast<std::size_t>(t * p.n + n)] = v;
        }
    }
    return y;
}

}  // namespace memwall::lora_test
