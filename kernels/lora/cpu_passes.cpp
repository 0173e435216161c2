// The passes around the GEMMs: the unfused dropout and scaled add (one pass each over X or Y, as
// PyTorch's LoRA runs them), and the fused down- and up-projections (LoRAFusion's idea on the
// CPU: dropout and scale applied as X is read, the adapter's term written once into Y for the
// base GEMM to accumulate onto).
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "kernels/kit/simd.hpp"
#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

namespace {

namespace simd = kit::simd;
using simd::lanes;
using simd::vf;
using vu = std::uint32_t __attribute__((vector_size(lanes * sizeof(float))));
using vh = std::uint16_t __attribute__((vector_size(lanes * sizeof(std::uint16_t))));

inline float load_elem(const float* p, std::int64_t i) { return p[i]; }
inline float load_elem(const std::uint16_t* p, std::int64_t i) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(p[i]) << 16);
}
// Round to nearest even, as __float2bfloat16_rn does (the values are finite).
inline std::uint32_t bf16_bits(std::uint32_t u) { return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; }
inline void store_elem(float* p, std::int64_t i, float v) { p[i] = v; }
inline void store_elem(std::uint16_t* p, std::int64_t i, float v) {
    p[i] = static_cast<std::uint16_t>(bf16_bits(std::bit_cast<std::uint32_t>(v)));
}
inline void store_vec(float* p, vf v) { simd::store(p, v); }
inline void store_vec(std::uint16_t* p, vf v) {
    const vu u = std::bit_cast<vu>(v);
    const vh h = __builtin_convertvector((u + 0x7fffu + ((u >> 16) & 1u)) >> 16, vh);
    std::memcpy(p, &h, sizeof h);
}

// Calls f(t, rows) over [t0, t1) in groups of up to 4 consecutive tokens of one adapter: the
// register block of the fused passes.
template <class F>
void for_row_groups(const LoraWorkload& w, std::int64_t t0, std::int64_t t1, F&& f) {
    const std::int32_t* adapter = w.adapter_of();
    for (std::int64_t t = t0; t < t1;) {
        std::int64_t rows = 1;
        while (rows < 4 && t + rows < t1 && adapter[t + rows] == adapter[t]) ++rows;
        f(t, rows);
        t += rows;
    }
}

template <class T, int NR>
void down_rows(const LoraWorkload& w, const T* x, const DownWeights& dw, std::int64_t t, float* s) {
    const LoraProblem& p = w.problem();
    const std::int64_t words = p.mask_words(), rp = dw.rp;
    const float* a = dw.a.data() + w.adapter_of()[t] * p.k * rp;
    const std::uint32_t* mask = w.mask() + t * words;
    const vf scale = simd::splat(static_cast<float>(p.lora_scale()));
    for (std::int64_t c = 0; c < rp; c += lanes) {
        vf acc[NR] = {};
        for (std::int64_t k0 = 0; k0 < p.k; k0 += 32) {
            std::uint32_t m[NR];
            for (int i = 0; i < NR; ++i) m[i] = mask[i * words + k0 / 32];
            const std::int64_t kend = std::min<std::int64_t>(32, p.k - k0);
            for (std::int64_t kk = 0; kk < kend; ++kk) {
                const vf av = simd::load(a + (k0 + kk) * rp + c);
                for (int i = 0; i < NR; ++i) {
                    // x * 0 or x * 1: no branch on the mask, which a tenth of elements fail at random.
                    const float xm = load_elem(x, (t + i) * p.k + k0 + kk) * static_cast<float>((m[i] >> kk) & 1u);
                    acc[i] = simd::fma(simd::splat(xm), av, acc[i]);
                }
            }
        }
        for (int i = 0; i < NR; ++i) simd::store(s + (t + i) * rp + c, acc[i] * scale);
    }
}

template <class T, int NR>
void up_rows(const LoraWorkload& w, std::int64_t rp, const float* s, std::int64_t t, std::int64_t n0, std::int64_t n1,
             T* y) {
    const LoraProblem& p = w.problem();
    const float* b = w.b(w.adapter_of()[t]);
    std::int64_t n = n0;
    for (; n + lanes <= n1; n += lanes) {
        vf acc[NR] = {};
        for (std::int64_t j = 0; j < p.r; ++j) {
            const vf bv = simd::load(b + j * p.n + n);
            for (int i = 0; i < NR; ++i) acc[i] = simd::fma(simd::splat(s[(t + i) * rp + j]), bv, acc[i]);
        }
        for (int i = 0; i < NR; ++i) store_vec(y + (t + i) * p.n + n, acc[i]);
    }
    for (; n < n1; ++n)
        for (int i = 0; i < NR; ++i) {
            float acc = 0;
            for (std::int64_t j = 0; j < p.r; ++j) acc += s[(t + i) * rp + j] * b[j * p.n + n];
            store_elem(y, (t + i) * p.n + n, acc);
        }
}

template <class T>
void down_project_as(const LoraWorkload& w, const T* x, const DownWeights& dw, std::int64_t t0, std::int64_t t1,
                     const Tiles& tiles, float* s) {
    const std::int64_t tasks = (t1 - t0 + tiles.tile_m - 1) / tiles.tile_m;
#pragma omp parallel for schedule(static)
    for (std::int64_t task = 0; task < tasks; ++task) {
        const std::int64_t a = t0 + task * tiles.tile_m, b = std::min(t1, a + tiles.tile_m);
        for_row_groups(w, a, b, [&](std::int64_t t, std::int64_t rows) {
            switch (rows) {
                case 4: down_rows<T, 4>(w, x, dw, t, s); break;
                case 3: down_rows<T, 3>(w, x, dw, t, s); break;
                case 2: down_rows<T, 2>(w, x, dw, t, s); break;
                default: down_rows<T, 1>(w, x, dw, t, s); break;
            }
        });
    }
}

template <class T>
void up_project_as(const LoraWorkload& w, std::int64_t rp, const float* s, std::int64_t t0, std::int64_t t1,
                   const Tiles& tiles, T* y) {
    const std::int64_t n = w.problem().n;
    const std::int64_t tasks = (t1 - t0 + tiles.tile_m - 1) / tiles.tile_m;
#pragma omp parallel for schedule(static)
    for (std::int64_t task = 0; task < tasks; ++task) {
        const std::int64_t a = t0 + task * tiles.tile_m, b = std::min(t1, a + tiles.tile_m);
        for (std::int64_t n0 = 0; n0 < n; n0 += tiles.tile_n) {
            const std::int64_t n1 = std::min(n, n0 + tiles.tile_n);
            for_row_groups(w, a, b, [&](std::int64_t t, std::int64_t rows) {
                switch (rows) {
                    case 4: up_rows<T, 4>(w, rp, s, t, n0, n1, y); break;
                    case 3: up_rows<T, 3>(w, rp, s, t, n0, n1, y); break;
                    case 2: up_rows<T, 2>(w, rp, s, t, n0, n1, y); break;
                    default: up_rows<T, 1>(w, rp, s, t, n0, n1, y); break;
                }
            });
        }
    }
}

template <class T>
void dropout_as(const LoraWorkload& w, const T* x, std::int64_t t0, std::int64_t t1, T* out) {
    const LoraProblem& p = w.problem();
    const std::int64_t words = p.mask_words();
    const auto scale = static_cast<float>(1.0 / (1.0 - p.dropout));
#pragma omp parallel for schedule(static)
    for (std::int64_t t = t0; t < t1; ++t)
        for (std::int64_t k0 = 0; k0 < p.k; k0 += 32) {
            const std::uint32_t m = w.mask()[t * words + k0 / 32];
            const std::int64_t kend = std::min<std::int64_t>(32, p.k - k0);
            for (std::int64_t kk = 0; kk < kend; ++kk)
                store_elem(out, t * p.k + k0 + kk,
                           load_elem(x, t * p.k + k0 + kk) * static_cast<float>((m >> kk) & 1u) * scale);
        }
}

template <class T>
void scaled_add_as(T* y, const T* t, float alpha, std::int64_t count) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) store_elem(y, i, load_elem(y, i) + alpha * load_elem(t, i));
}

}  // namespace

void dropout(const LoraWorkload& w, std::int64_t t0, std::int64_t t1, void* out) {
    if (w.problem().dtype == LoraDtype::bf16)
        dropout_as(w, w.x16(), t0, t1, static_cast<std::uint16_t*>(out));
    else
        dropout_as(w, w.x(), t0, t1, static_cast<float*>(out));
}

void scaled_add(LoraDtype dtype, void* y, const void* t, float alpha, std::int64_t count) {
    if (dtype == LoraDtype::bf16)
        scaled_add_as(static_cast<std::uint16_t*>(y), static_cast<const std::uint16_t*>(t), alpha, count);
    else
        scaled_add_as(static_cast<float*>(y), static_cast<const float*>(t), alpha, count);
}

DownWeights down_weights(const LoraWorkload& w) {
    const LoraProblem& p = w.problem();
    DownWeights d;
    d.rp = (p.r + lanes - 1) / lanes * lanes;
    d.a.assign(static_cast<std::size_t>(p.adapters * p.k * d.rp), 0.0f);
    for (std::int64_t a = 0; a < p.adapters; ++a)
        for (std::int64_t k = 0; k < p.k; ++k)
            std::copy_n(w.a(a) + k * p.r, p.r, d.a.begin() + (a * p.k + k) * d.rp);
    return d;
}

void down_project(const LoraWorkload& w, const DownWeights& a, std::int64_t t0, std::int64_t t1, const Tiles& tiles,
                  float* s) {
    if (w.problem().dtype == LoraDtype::bf16)
        down_project_as(w, w.x16(), a, t0, t1, tiles, s);
    else
        down_project_as(w, w.x(), a, t0, t1, tiles, s);
}

void up_project(const LoraWorkload& w, std::int64_t rp, const float* s, std::int64_t t0, std::int64_t t1,
                const Tiles& tiles, void* y) {
    if (w.problem().dtype == LoraDtype::bf16)
        up_project_as(w, rp, s, t0, t1, tiles, static_cast<std::uint16_t*>(y));
    else
        up_project_as(w, rp, s, t0, t1, tiles, static_cast<float*>(y));
}

}  // namespace memwall::lora_cpu
