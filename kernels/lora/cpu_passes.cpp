// The fused LoRA pass (LoRAFusion's idea on the CPU: dropout and scale applied as X is read, and
// the adapter's term added to the base GEMM's Y in the same pass, a task of tokens at a time),
// built once per ISA. On the AVX-512 path the bf16 dot products (vdpbf16ps) run where the CPU has
// AVX512-BF16, in functions of their own target, chosen as the pass runs.
#include <omp.h>

#include <type_traits>

#include "kernels/lora/cpu_kernels.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/kit/simd.hpp"

#if defined(MEMWALL_SIMD_512)
#define MEMWALL_LORA_BF16_TARGET __attribute__((target("avx512bf16")))
#endif

namespace memwall::lora_cpu {

namespace {

namespace simd = kit::simd;
using simd::lanes;
using simd::vf;
using vu = std::uint32_t __attribute__((vector_size(lanes * sizeof(float))));
using vh = std::uint16_t __attribute__((vector_size(lanes * sizeof(std::uint16_t))));

inline void store_vec(float* p, vf v) { simd::store(p, v); }
inline void store_vec(std::uint16_t* p, vf v) {
    const vu u = __builtin_bit_cast(vu, v);
    const vh h = __builtin_convertvector((u + 0x7fffu + ((u >> 16) & 1u)) >> 16, vh);
    std::memcpy(p, &h, sizeof h);
}

// S entries one row of the down-projection accumulates at once: with two rows, half the vector
// registers (padded_rank pads to a multiple of the widest ISA's).
constexpr int kDownBlock = simd::registers / 4;
static_assert(kRankGranule % kDownBlock == 0);
// The bf16 up-projection keeps a token's S as pairs of ranks on the stack (up to rank 128; larger
// ranks take the fp32 path).
constexpr int kMaxRankPairs = 64;

// Calls f(t, rows) over [t0, t1) in groups of up to `most` consecutive tokens of one adapter: the
// register block of the fused passes.
template <class F>
void for_row_groups(const LoraWorkload& w, std::int64_t t0, std::int64_t t1, std::int64_t most, F&& f) {
    const std::int32_t* adapter = w.adapter_of();
    for (std::int64_t t = t0; t < t1;) {
        std::int64_t rows = 1;
        while (rows < most && t + rows < t1 && adapter[t + rows] == adapter[t]) ++rows;
        f(t, rows);
        t += rows;
    }
}

// A vector of X's row from element k (lanes of them) with the mask applied: x * 0 or x * 1, no
// branch on bits a tenth of which fail at random. k is a multiple of the vector width.
inline vf load_vec(const float* p) { return simd::load(p); }
inline vf load_vec(const std::uint16_t* p) {
#if defined(MEMWALL_SIMD_512)
    // One zero-extending load and a shift: GCC, tuned for 256-bit vectors on Zen 4, splits the
    // generic conversion into six instructions, which took a third of the bf16 up-projection.
    // (maskz forms: the plain ones start from _mm512_undefined, which GCC 12 flags as uninitialised.)
    const __m512i h = _mm512_maskz_cvtepu16_epi32(0xffff, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    const __m512i u = _mm512_maskz_slli_epi32(0xffff, h, 16);
    return __builtin_bit_cast(vf, u);
#else
    vh h;
    std::memcpy(&h, p, sizeof h);
    return __builtin_bit_cast(vf, __builtin_convertvector(h, vu) << 16);
#endif
}
inline vf mask_vec(const std::uint32_t* mask, std::int64_t k) {
    vu lane;
    for (int i = 0; i < lanes; ++i) lane[i] = static_cast<std::uint32_t>(i);
    const vu bits = (vu{} + (mask[k / 32] >> (k % 32))) >> lane;
    return __builtin_convertvector(bits & 1u, vf);
}

// Rows t .. t+NR-1 (one adapter): each S entry is the dot product of the masked row with a row of
// Aᵀ, kDownBlock of them at a time in vector accumulators. Rows are read whole, in order: blocking
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
    for (std::int64_t j0 = 0; j0 < dw.rp; j0 += kDownBlock) {
        vf acc[NR][kDownBlock] = {};
        auto step = [&](std::int64_t k, const vf(&xm)[NR]) {
            for (int j = 0; j < kDownBlock; ++j) {
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
            for (int j = 0; j < kDownBlock; ++j) s[(t + i) * dw.rp + j0 + j] = simd::hsum(acc[i][j]);
    }
}

template <class T, int NR>
void up_rows(const LoraWorkload& w, std::int64_t rp, const float* s, std::int64_t t, std::int64_t n0, std::int64_t n1,
             T* y) {
    const LoraProblem& p = w.problem();
    const float* b = w.b(w.adapter_of()[t]);
    std::int64_t n = n0;
    for (; n + 2 * lanes <= n1; n += 2 * lanes) {
        vf acc[NR][2];
        for (int i = 0; i < NR; ++i) {
            acc[i][0] = load_vec(y + (t + i) * p.n + n);
            acc[i][1] = load_vec(y + (t + i) * p.n + n + lanes);
        }
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
            float acc = load_elem(y, (t + i) * p.n + n);
            for (std::int64_t j = 0; j < p.r; ++j) acc += s[(t + i) * rp + j] * b[j * p.n + n];
            store_elem(y, (t + i) * p.n + n, acc);
        }
}

#if defined(MEMWALL_SIMD_512)
// Elements of each row masked into an L1 buffer at a time: 256 bytes (a multiple of the mask's 32
// elements); longer chunks measured slower (fp32, M = 2048, K = 4096, r = 16: 2.4 ms at 2 KiB,
// 1.8 ms at 256 bytes). A constant at namespace scope: as a local constexpr, which std::min
// takes by reference, it led GCC 12 to keep the accumulators in memory, stored at every step.
template <class T>
constexpr std::int64_t kDownChunk = 256 / sizeof(T);

// Whether the CPU has the bf16 dot product the bf16 rows below take.
bool has_avx512_bf16() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512bf16") != 0;
    }();
    return has;
}

// Whether the vector down-projection below takes rows of T here.
template <class T>
bool quad_rows() {
    return std::is_same_v<T, float> || has_avx512_bf16();
}

// Rows of T (fp32; bf16 on CPUs with AVX512-BF16), 4 rows of one adapter and 4·V ranks (V = 4
// or 2) at a time. Each row's chunk is first copied to an L1 buffer with the dropout applied: a
// masked load by the mask's word, whose bits past K are 0, so nothing past the row is read. Then
// a 128-bit broadcast puts a row's next 4 floats (4 pairs of bf16) in every 128-bit lane, and one
// FMA (vdpbf16ps) with a vector of Aᵀ laid out to match (lane l: rank 4v + l/4, element or pair
// l%4) adds 4 products to each of 4 ranks; each rank's 4 lanes are summed at the end. A broadcast
// serves V instructions and a load of A serves 4 rows: 0.5 loads per FMA, whose throughput is then
// the bound (M·K·r/16 FMAs, M·K·r/32 vdpbf16ps), where the transposed form's A traffic and
// horizontal sums took twice as long. Rows past `rows` repeat the last one (computed, not stored).
template <class T, int V>
MEMWALL_LORA_BF16_TARGET void down_rows_quads(const LoraWorkload& w, const T* x, const AdapterWeights& dw,
                                              std::int64_t t, std::int64_t rows, std::int64_t v0, float* s) {
    constexpr int NR = 4;
    constexpr std::int64_t group = 16 / sizeof(T), per_vector = 64 / sizeof(T);
    const LoraProblem& p = w.problem();
    const std::int64_t words = p.mask_words();
    const std::int64_t vectors = dw.rp / 4;
    const T* aq = w.adapter_of()[t] * dw.kp * dw.rp + [&] {
        if constexpr (std::is_same_v<T, float>)
            return dw.a32_quads.data();
        else
            return dw.a16_quads.data();
    }();
    alignas(64) T xm[NR][kDownChunk<T>];
    __m512 acc[NR][V];
    for (auto& row : acc)
        for (__m512& a : row) a = _mm512_setzero_ps();
    for (std::int64_t k0 = 0; k0 < dw.kp; k0 += kDownChunk<T>) {
        const std::int64_t kc = std::min(kDownChunk<T>, dw.kp - k0);
        for (int i = 0; i < NR; ++i) {
            const std::int64_t row = t + std::min<std::int64_t>(i, rows - 1);
            const T* in = x + row * p.k + k0;
            for (std::int64_t k = 0; k < kc; k += 32) {
                const std::uint32_t m = w.mask()[row * words + (k0 + k) / 32];
                if constexpr (std::is_same_v<T, float>) {
                    _mm512_store_ps(xm[i] + k, _mm512_maskz_loadu_ps(static_cast<__mmask16>(m), in + k));
                    _mm512_store_ps(xm[i] + k + 16,
                                    _mm512_maskz_loadu_ps(static_cast<__mmask16>(m >> 16), in + k + 16));
                } else {
                    _mm512_store_si512(xm[i] + k, _mm512_maskz_loadu_epi16(m, in + k));
                }
            }
        }
        for (std::int64_t g = 0; g < kc / group; ++g) {
            const T* a = aq + ((k0 / group + g) * vectors + v0) * per_vector;
            __m512i av[V];
            for (int v = 0; v < V; ++v) {
                av[v] = _mm512_loadu_si512(a + v * per_vector);
                // In a register: left to itself GCC folds the load into each row's instruction,
                // 4 loads of it instead of 1, and loads, not FMAs, bound the loop.
                asm("" : "+v"(av[v]));
            }
            for (int i = 0; i < NR; ++i) {
                const __m512i xb = _mm512_maskz_broadcast_i32x4(
                    0xffff, _mm_load_si128(reinterpret_cast<const __m128i*>(xm[i] + group * g)));
                for (int v = 0; v < V; ++v) {
                    if constexpr (std::is_same_v<T, float>)
                        acc[i][v] = _mm512_fmadd_ps(_mm512_castsi512_ps(xb), _mm512_castsi512_ps(av[v]), acc[i][v]);
                    else
                        acc[i][v] = _mm512_dpbf16_ps(acc[i][v], reinterpret_cast<__m512bh>(xb),
                                                     reinterpret_cast<__m512bh>(av[v]));
                }
            }
        }
    }
    for (std::int64_t i = 0; i < rows; ++i)
        for (int v = 0; v < V; ++v) {
            alignas(64) float lane[16];
            _mm512_store_ps(lane, acc[i][v]);
            for (int q = 0; q < 4; ++q)
                s[(t + i) * dw.rp + 4 * (v0 + v) + q] =
                    lane[4 * q] + lane[4 * q + 1] + lane[4 * q + 2] + lane[4 * q + 3];
        }
}

// fp32 rows of Y: S's entries broadcast against B's rows, 32 columns (two lines) per row at a time.
template <int NR>
void up_rows_f32(const LoraWorkload& w, std::int64_t rp, const float* s, std::int64_t t, std::int64_t n0,
                 std::int64_t n1, float* y) {
    const LoraProblem& p = w.problem();
    const float* b = w.b(w.adapter_of()[t]);
    std::int64_t n = n0;
    for (; n + 32 <= n1; n += 32) {
        __m512 acc[NR][2];
        for (int i = 0; i < NR; ++i)
            for (int h = 0; h < 2; ++h) acc[i][h] = _mm512_loadu_ps(y + (t + i) * p.n + n + 16 * h);
        for (std::int64_t j = 0; j < p.r; ++j) {
            __m512 b0 = _mm512_loadu_ps(b + j * p.n + n), b1 = _mm512_loadu_ps(b + j * p.n + n + 16);
            asm("" : "+v"(b0), "+v"(b1));  // loaded once, not folded into each row's FMA
            for (int i = 0; i < NR; ++i) {
                const __m512 sv = _mm512_set1_ps(s[(t + i) * rp + j]);
                acc[i][0] = _mm512_fmadd_ps(sv, b0, acc[i][0]);
                acc[i][1] = _mm512_fmadd_ps(sv, b1, acc[i][1]);
            }
        }
        for (int i = 0; i < NR; ++i) {
            _mm512_storeu_ps(y + (t + i) * p.n + n, acc[i][0]);
            _mm512_storeu_ps(y + (t + i) * p.n + n + 16, acc[i][1]);
        }
    }
    if (n < n1) up_rows<float, NR>(w, rp, s, t, n, n1, y);
}

// bf16 on CPUs with AVX512-BF16: S rounded to bf16 (as the unfused passes' bf16 S is) and taken in
// pairs of ranks, each pair broadcast against B's row pairs, 16 columns of Y per vdpbf16ps; the
// result rounded to bf16 by vcvtne2ps2bf16, 32 columns (a line) at a time.
template <int NR>
MEMWALL_LORA_BF16_TARGET void up_rows_bf16(const LoraWorkload& w, const AdapterWeights& aw, const float* s,
                                           std::int64_t t, std::int64_t n0, std::int64_t n1, std::uint16_t* y) {
    const LoraProblem& p = w.problem();
    const std::uint16_t* bp = aw.b16_pairs.data() + w.adapter_of()[t] * aw.rp * p.n;
    std::int32_t sp[NR][kMaxRankPairs];
    for (int i = 0; i < NR; ++i)
        for (std::int64_t j = 0; j < aw.rp; j += 2) {
            const __m128 pair = _mm_set_ps(0.0f, 0.0f, s[(t + i) * aw.rp + j + 1], s[(t + i) * aw.rp + j]);
            sp[i][j / 2] = _mm_cvtsi128_si32(reinterpret_cast<__m128i>(_mm_cvtneps_pbh(pair)));
        }
    std::int64_t n = n0;
    for (; n + 2 * lanes <= n1; n += 2 * lanes) {
        __m512 acc[NR][2];
        for (int i = 0; i < NR; ++i)
            for (int h = 0; h < 2; ++h)
                acc[i][h] = __builtin_bit_cast(__m512, load_vec(y + (t + i) * p.n + n + h * lanes));
        for (std::int64_t jp = 0; jp < aw.rp / 2; ++jp) {
            auto b0 = reinterpret_cast<__m512bh>(_mm512_loadu_si512(bp + (jp * p.n + n) * 2));
            auto b1 = reinterpret_cast<__m512bh>(_mm512_loadu_si512(bp + (jp * p.n + n + lanes) * 2));
            asm("" : "+v"(b0), "+v"(b1));  // loaded once, not folded into each row's vdpbf16ps
            for (int i = 0; i < NR; ++i) {
                const auto sv = reinterpret_cast<__m512bh>(_mm512_set1_epi32(sp[i][jp]));
                acc[i][0] = _mm512_dpbf16_ps(acc[i][0], sv, b0);
                acc[i][1] = _mm512_dpbf16_ps(acc[i][1], sv, b1);
            }
        }
        for (int i = 0; i < NR; ++i) {
            std::uint16_t* out = y + (t + i) * p.n + n;
            _mm512_storeu_si512(out, reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(acc[i][1], acc[i][0])));
        }
    }
    if (n < n1) up_rows<std::uint16_t, NR>(w, aw.rp, s, t, n, n1, y);
}
#endif

template <int NR, class T>
void up_rows_of(const LoraWorkload& w, const AdapterWeights& aw, const float* s, std::int64_t t, std::int64_t n0,
                std::int64_t n1, T* y) {
#if defined(MEMWALL_SIMD_512)
    if constexpr (std::is_same_v<T, float>) return up_rows_f32<NR>(w, aw.rp, s, t, n0, n1, y);
    if constexpr (std::is_same_v<T, std::uint16_t>) {
        if (has_avx512_bf16() && aw.rp <= 2 * kMaxRankPairs) return up_rows_bf16<NR>(w, aw, s, t, n0, n1, y);
    }
#endif
    up_rows<T, NR>(w, aw.rp, s, t, n0, n1, y);
}

// S rows [a, b) = α/(1-p)·(mask ⊙ X)·A_adapter(t), on the calling thread.
template <class T>
void down_task(const LoraWorkload& w, const T* x, const AdapterWeights& dw, std::int64_t a, std::int64_t b, float* s) {
#if defined(MEMWALL_SIMD_512)
    if (quad_rows<T>()) {
        // Ranks in blocks of 16, then 8 (rp is a multiple of 8).
        for_row_groups(w, a, b, 4, [&](std::int64_t t, std::int64_t rows) {
            for (std::int64_t v0 = 0; v0 < dw.rp / 4; v0 += 4) {
                if (dw.rp / 4 - v0 >= 4)
                    down_rows_quads<T, 4>(w, x, dw, t, rows, v0, s);
                else
                    down_rows_quads<T, 2>(w, x, dw, t, rows, v0, s);
            }
        });
    } else
#endif
    {
        // Two tokens at a time where they share an adapter.
        for (std::int64_t t = a; t < b;) {
            if (t + 1 < b && w.adapter_of()[t + 1] == w.adapter_of()[t]) {
                down_rows<T, 2>(w, x, dw, t, s);
                t += 2;
            } else {
                down_rows<T, 1>(w, x, dw, t, s);
                t += 1;
            }
        }
    }
    const auto scale = static_cast<float>(w.problem().lora_scale());
    for (std::int64_t i = a * dw.rp; i < b * dw.rp; ++i) s[i] *= scale;
}

// Y rows [a, b) += S·B_adapter(t), tile_n columns at a time, on the calling thread.
template <class T>
void up_task(const LoraWorkload& w, const AdapterWeights& aw, const float* s, std::int64_t a, std::int64_t b,
             std::int64_t tile_n, T* y) {
    const std::int64_t n = w.problem().n;
    for (std::int64_t n0 = 0; n0 < n; n0 += tile_n) {
        const std::int64_t n1 = std::min(n, n0 + tile_n);
        for_row_groups(w, a, b, 4, [&](std::int64_t t, std::int64_t rows) {
            switch (rows) {
                case 4: up_rows_of<4>(w, aw, s, t, n0, n1, y); break;
                case 3: up_rows_of<3>(w, aw, s, t, n0, n1, y); break;
                case 2: up_rows_of<2>(w, aw, s, t, n0, n1, y); break;
                default: up_rows_of<1>(w, aw, s, t, n0, n1, y); break;
            }
        });
    }
}

// Per task of tile_m tokens, its S and at once its rows of Y: S's rows never leave the core's
// caches, and the down-projection's arithmetic overlaps the up-projection's pass over Y.
template <class T>
void lora_pass_as(const LoraWorkload& w, const T* x, const AdapterWeights& aw, std::int64_t t0, std::int64_t t1,
                  const Tiles& tiles, float* s, T* y) {
    const std::int64_t tasks = (t1 - t0 + tiles.tile_m - 1) / tiles.tile_m;
#pragma omp parallel for schedule(static)
    for (std::int64_t task = 0; task < tasks; ++task) {
        const std::int64_t a = t0 + task * tiles.tile_m, b = std::min(t1, a + tiles.tile_m);
        down_task(w, x, aw, a, b, s);
        up_task(w, aw, s, a, b, tiles.tile_n, y);
    }
}

}  // namespace

template <>
void lora_pass<kit::kKernelIsa>(const LoraWorkload& w, const AdapterWeights& aw, std::int64_t t0, std::int64_t t1,
                                const Tiles& tiles, float* s, void* y) {
    if (w.problem().dtype == LoraDtype::bf16)
        lora_pass_as(w, w.x16(), aw, t0, t1, tiles, s, static_cast<std::uint16_t*>(y));
    else
        lora_pass_as(w, w.x(), aw, t0, t1, tiles, s, static_cast<float*>(y));
}

}  // namespace memwall::lora_cpu
MEMWALL_KERNEL_END
