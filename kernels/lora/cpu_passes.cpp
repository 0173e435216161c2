// The passes around the GEMMs: the unfused dropout and scaled add (one pass each over X or Y, as
// PyTorch's LoRA runs them), and the fused down- and up-projections (LoRAFusion's idea on the
// CPU: dropout and scale applied as X is read, the adapter's term written once into Y for the
// base GEMM to accumulate onto).
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

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

// S entries one row of the down-projection accumulates at once: with two rows, half the vector
// registers.
constexpr int down_block = simd::registers / 4;
// The bf16 up-projection keeps a token's S in registers as pairs of ranks (up to rank 16; larger
// ranks take the fp32 path).
constexpr int max_rank_pairs = 8;

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

// A vector of X's row from element k (lanes of them) with the mask applied: x * 0 or x * 1, no
// branch on bits a tenth of which fail at random. k is a multiple of the vector width.
inline vf load_vec(const float* p) { return simd::load(p); }
inline vf load_vec(const std::uint16_t* p) {
    vh h;
    std::memcpy(&h, p, sizeof h);
    return std::bit_cast<vf>(__builtin_convertvector(h, vu) << 16);
}
inline vf mask_vec(const std::uint32_t* mask, std::int64_t k) {
    vu lane;
    for (int i = 0; i < lanes; ++i) lane[i] = static_cast<std::uint32_t>(i);
    const vu bits = (vu{} + (mask[k / 32] >> (k % 32))) >> lane;
    return __builtin_convertvector(bits & 1u, vf);
}

// Rows t .. t+NR-1 (one adapter): each S entry is the dot product of the masked row with a row of
// Aᵀ, down_block of them at a time in vector accumulators. Rows are read whole, in order: blocking
// K so that a block of Aᵀ stays in L1 measured slower, the rows' short runs defeating the
// prefetcher.
template <class T, int NR>
void down_rows(const LoraWorkload& w, const T* x, const AdapterWeights& dw, std::int64_t t, float* s) {
    const LoraProblem& p = w.problem();
    const std::int64_t words = p.mask_words();
    const float* at = dw.a.data() + w.adapter_of()[t] * dw.rp * dw.kp;
    const T* rows[NR];
    const std::uint32_t* masks[NR];
    for (int i = 0; i < NR; ++i) {
        rows[i] = x + (t + i) * p.k;
        masks[i] = w.mask() + (t + i) * words;
    }
    // Whole vectors, then the row's last partial one (Aᵀ's rows are zero past K).
    const std::int64_t whole = p.k / lanes * lanes;
    for (std::int64_t j0 = 0; j0 < dw.rp; j0 += down_block) {
        vf acc[NR][down_block] = {};
        auto step = [&](std::int64_t k, const vf (&xm)[NR]) {
            for (int j = 0; j < down_block; ++j) {
                const vf av = simd::load(at + (j0 + j) * dw.kp + k);
                for (int i = 0; i < NR; ++i) acc[i][j] = simd::fma(xm[i], av, acc[i][j]);
            }
        };
        for (std::int64_t k = 0; k < whole; k += lanes) {
            vf xm[NR];
            for (int i = 0; i < NR; ++i) xm[i] = load_vec(rows[i] + k) * mask_vec(masks[i], k);
            step(k, xm);
        }
        if (whole < p.k) {
            vf xm[NR];
            for (int i = 0; i < NR; ++i) {
                xm[i] = vf{};
                for (std::int64_t q = whole; q < p.k; ++q) xm[i][q - whole] = load_elem(rows[i], q);
                xm[i] *= mask_vec(masks[i], whole);
            }
            step(whole, xm);
        }
        for (int i = 0; i < NR; ++i)
            for (int j = 0; j < down_block; ++j) s[(t + i) * dw.rp + j0 + j] = simd::hsum(acc[i][j]);
    }
}

#if defined(__AVX512BF16__)
// bf16 rows on CPUs with AVX512-BF16: 32 elements a step, the dropped ones zeroed as they load (a
// masked load by the mask's word; its bits past K are 0, so nothing past the row is read), then
// vdpbf16ps multiplies 32 bf16 pairs into 16 fp32 lanes: half the instructions of widening to fp32
// first, and no conversions. The products of two bf16 values are exact in fp32.
template <int NR>
void down_rows_bf16(const LoraWorkload& w, const AdapterWeights& dw, std::int64_t t, float* s) {
    const LoraProblem& p = w.problem();
    const std::int64_t words = p.mask_words();
    const std::uint16_t* at = dw.a16.data() + w.adapter_of()[t] * dw.rp * dw.kp;
    for (std::int64_t j0 = 0; j0 < dw.rp; j0 += down_block) {
        __m512 acc[NR][down_block];
        for (auto& row : acc)
            for (__m512& a : row) a = _mm512_setzero_ps();
        for (std::int64_t k = 0; k < p.k; k += 32) {
            __m512bh xm[NR];
            for (int i = 0; i < NR; ++i)
                xm[i] = reinterpret_cast<__m512bh>(
                    _mm512_maskz_loadu_epi16(w.mask()[(t + i) * words + k / 32], w.x16() + (t + i) * p.k + k));
            for (int j = 0; j < down_block; ++j) {
                const auto av = reinterpret_cast<__m512bh>(_mm512_loadu_si512(at + (j0 + j) * dw.kp + k));
                for (int i = 0; i < NR; ++i) acc[i][j] = _mm512_dpbf16_ps(acc[i][j], xm[i], av);
            }
        }
        for (int i = 0; i < NR; ++i)
            for (int j = 0; j < down_block; ++j) s[(t + i) * dw.rp + j0 + j] = simd::hsum(std::bit_cast<vf>(acc[i][j]));
    }
}
#endif

template <class T, int NR>
void up_rows(const LoraWorkload& w, std::int64_t rp, const float* s, std::int64_t t, std::int64_t n0, std::int64_t n1,
             T* y) {
    const LoraProblem& p = w.problem();
    const float* b = w.b(w.adapter_of()[t]);
    std::int64_t n = n0;
    for (; n + 2 * lanes <= n1; n += 2 * lanes) {
        vf acc[NR][2] = {};
        for (std::int64_t j = 0; j < p.r; ++j) {
            const vf b0 = simd::load(b + j * p.n + n), b1 = simd::load(b + j * p.n + n + lanes);
            for (int i = 0; i < NR; ++i) {
                const vf sv = simd::splat(s[(t + i) * rp + j]);
                acc[i][0] = simd::fma(sv, b0, acc[i][0]);
                acc[i][1] = simd::fma(sv, b1, acc[i][1]);
            }
        }
        for (int i = 0; i < NR; ++i) {
            store_vec(y + (t + i) * p.n + n, acc[i][0]);
            store_vec(y + (t + i) * p.n + n + lanes, acc[i][1]);
        }
    }
    for (; n < n1; ++n)
        for (int i = 0; i < NR; ++i) {
            float acc = 0;
            for (std::int64_t j = 0; j < p.r; ++j) acc += s[(t + i) * rp + j] * b[j * p.n + n];
            store_elem(y, (t + i) * p.n + n, acc);
        }
}

// Two tokens at a time where they share an adapter.
template <int NR, class T>
void down_rows_of(const LoraWorkload& w, const T* x, const AdapterWeights& dw, std::int64_t t, float* s) {
#if defined(__AVX512BF16__)
    if constexpr (std::is_same_v<T, std::uint16_t>)
        down_rows_bf16<NR>(w, dw, t, s);
    else
#endif
        down_rows<T, NR>(w, x, dw, t, s);
}

#if defined(__AVX512BF16__)
// bf16 on CPUs with AVX512-BF16: S rounded to bf16 (as the unfused passes' bf16 S is) and taken in
// pairs of ranks, each pair broadcast against B's row pairs, 16 columns of Y per vdpbf16ps; the
// result rounded to bf16 by vcvtneps2bf16.
template <int NR>
void up_rows_bf16(const LoraWorkload& w, const AdapterWeights& aw, const float* s, std::int64_t t, std::int64_t n0,
                  std::int64_t n1, std::uint16_t* y) {
    const LoraProblem& p = w.problem();
    const std::uint16_t* bp = aw.b16_pairs.data() + w.adapter_of()[t] * aw.rp * p.n;
    __m512bh sp[NR][max_rank_pairs];
    for (int i = 0; i < NR; ++i)
        for (std::int64_t j = 0; j < aw.rp; j += 2) {
            const __m128 pair = _mm_set_ps(0.0f, 0.0f, s[(t + i) * aw.rp + j + 1], s[(t + i) * aw.rp + j]);
            const int bits = _mm_cvtsi128_si32(reinterpret_cast<__m128i>(_mm_cvtneps_pbh(pair)));
            sp[i][j / 2] = reinterpret_cast<__m512bh>(_mm512_set1_epi32(bits));
        }
    std::int64_t n = n0;
    for (; n + 2 * lanes <= n1; n += 2 * lanes) {
        __m512 acc[NR][2];
        for (auto& row : acc) row[0] = row[1] = _mm512_setzero_ps();
        for (std::int64_t jp = 0; jp < aw.rp / 2; ++jp) {
            const auto b0 = reinterpret_cast<__m512bh>(_mm512_loadu_si512(bp + (jp * p.n + n) * 2));
            const auto b1 = reinterpret_cast<__m512bh>(_mm512_loadu_si512(bp + (jp * p.n + n + lanes) * 2));
            for (int i = 0; i < NR; ++i) {
                acc[i][0] = _mm512_dpbf16_ps(acc[i][0], sp[i][jp], b0);
                acc[i][1] = _mm512_dpbf16_ps(acc[i][1], sp[i][jp], b1);
            }
        }
        for (int i = 0; i < NR; ++i)
            for (int h = 0; h < 2; ++h)
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + (t + i) * p.n + n + h * lanes),
                                    reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(acc[i][h])));
    }
    if (n < n1) up_rows<std::uint16_t, NR>(w, aw.rp, s, t, n, n1, y);
}
#endif

template <int NR, class T>
void up_rows_of(const LoraWorkload& w, const AdapterWeights& aw, const float* s, std::int64_t t, std::int64_t n0,
                std::int64_t n1, T* y) {
#if defined(__AVX512BF16__)
    if constexpr (std::is_same_v<T, std::uint16_t>) {
        if (aw.rp <= 2 * max_rank_pairs) return up_rows_bf16<NR>(w, aw, s, t, n0, n1, y);
    }
#endif
    up_rows<T, NR>(w, aw.rp, s, t, n0, n1, y);
}

template <class T>
void down_project_as(const LoraWorkload& w, const T* x, const AdapterWeights& dw, std::int64_t t0, std::int64_t t1,
                     const Tiles& tiles, float* s) {
    const auto scale = static_cast<float>(w.problem().lora_scale());
    const std::int64_t tasks = (t1 - t0 + tiles.tile_m - 1) / tiles.tile_m;
#pragma omp parallel for schedule(static)
    for (std::int64_t task = 0; task < tasks; ++task) {
        const std::int64_t a = t0 + task * tiles.tile_m, b = std::min(t1, a + tiles.tile_m);
        for (std::int64_t t = a; t < b;) {
            if (t + 1 < b && w.adapter_of()[t + 1] == w.adapter_of()[t]) {
                down_rows_of<2>(w, x, dw, t, s);
                t += 2;
            } else {
                down_rows_of<1>(w, x, dw, t, s);
                t += 1;
            }
        }
        for (std::int64_t i = a * dw.rp; i < b * dw.rp; ++i) s[i] *= scale;
    }
}

template <class T>
void up_project_as(const LoraWorkload& w, const AdapterWeights& aw, const float* s, std::int64_t t0, std::int64_t t1,
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
                    case 4: up_rows_of<4>(w, aw, s, t, n0, n1, y); break;
                    case 3: up_rows_of<3>(w, aw, s, t, n0, n1, y); break;
                    case 2: up_rows_of<2>(w, aw, s, t, n0, n1, y); break;
                    default: up_rows_of<1>(w, aw, s, t, n0, n1, y); break;
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

std::int64_t padded_rank(std::int64_t r) { return (r + down_block - 1) / down_block * down_block; }

AdapterWeights adapter_weights(const LoraWorkload& w) {
    const LoraProblem& p = w.problem();
    AdapterWeights d;
    d.rp = padded_rank(p.r);
    d.kp = (p.k + 31) / 32 * 32;
    d.a.assign(static_cast<std::size_t>(p.adapters * d.rp * d.kp), 0.0f);
    for (std::int64_t a = 0; a < p.adapters; ++a)
        for (std::int64_t k = 0; k < p.k; ++k)
            for (std::int64_t j = 0; j < p.r; ++j)
                d.a[static_cast<std::size_t>((a * d.rp + j) * d.kp + k)] = w.a(a)[k * p.r + j];
    if (p.dtype == LoraDtype::bf16) {  // the same values, exact in bf16
        d.a16.resize(d.a.size());
        for (std::size_t i = 0; i < d.a.size(); ++i) d.a16[i] = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(d.a[i]) >> 16);
        d.b16_pairs.assign(static_cast<std::size_t>(p.adapters * d.rp * p.n), 0);
        for (std::int64_t a = 0; a < p.adapters; ++a)
            for (std::int64_t j = 0; j < p.r; ++j)
                for (std::int64_t n = 0; n < p.n; ++n)
                    d.b16_pairs[static_cast<std::size_t>(((a * d.rp + j / 2 * 2) * p.n + n * 2) + j % 2)] = w.b16(a)[j * p.n + n];
    }
    return d;
}

void down_project(const LoraWorkload& w, const AdapterWeights& a, std::int64_t t0, std::int64_t t1, const Tiles& tiles,
                  float* s) {
    if (w.problem().dtype == LoraDtype::bf16)
        down_project_as(w, w.x16(), a, t0, t1, tiles, s);
    else
        down_project_as(w, w.x(), a, t0, t1, tiles, s);
}

void up_project(const LoraWorkload& w, const AdapterWeights& aw, const float* s, std::int64_t t0, std::int64_t t1,
                const Tiles& tiles, void* y) {
    if (w.problem().dtype == LoraDtype::bf16)
        up_project_as(w, aw, s, t0, t1, tiles, static_cast<std::uint16_t*>(y));
    else
        up_project_as(w, aw, s, t0, t1, tiles, static_cast<float*>(y));
}

}  // namespace memwall::lora_cpu
