// Portable fp32 vectors (GCC vector extensions) and a vectorised exp2 for the CPU kernels:
// std::exp does not vectorise without -ffast-math. In a family's ISA_SOURCES the width follows
// MEMWALL_KERNEL_LEVEL (kit/kernel_isa.hpp: include this after it, inside the kernel's target);
// elsewhere it follows the compiler's flags. The inline namespace keeps the widths' functions
// apart, as the linker sees them. (__builtin_bit_cast, not std::bit_cast: the template, declared
// outside a kernel's target, cannot take AVX-512 vectors by value.)
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#if defined(MEMWALL_KERNEL_LEVEL)
#if MEMWALL_KERNEL_LEVEL == 4
#define MEMWALL_SIMD_512 1
#endif
#define MEMWALL_SIMD_256 1
#define MEMWALL_SIMD_FMA 1
#else
#if defined(__AVX512F__)
#define MEMWALL_SIMD_512 1
#endif
#if defined(__AVX__)
#define MEMWALL_SIMD_256 1
#endif
#if defined(__FMA__)
#define MEMWALL_SIMD_FMA 1
#endif
#endif

namespace memwall::kit::simd {
#if defined(MEMWALL_SIMD_512)
inline namespace w512 {
#else
inline namespace w256 {
#endif

// One vector register: 16 floats with AVX-512, else 8 (two registers' worth on SSE only).
#if defined(MEMWALL_SIMD_512)
inline constexpr int lanes = 16;
#else
inline constexpr int lanes = 8;
#endif

using vf = float __attribute__((vector_size(lanes * sizeof(float))));
using vi = std::int32_t __attribute__((vector_size(lanes * sizeof(float))));

// Unaligned load and store (memcpy compiles to one vector move).
inline vf load(const float* p) {
    vf v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store(float* p, vf v) { std::memcpy(p, &v, sizeof v); }
// Every lane x. Not `vf{} + x`: without -ffast-math that adds 0.0 (for x = -0.0's sign) before
// broadcasting, an ALU operation where a broadcast from memory is a plain load.
inline vf splat(float x) {
#if defined(MEMWALL_SIMD_512)
    const __m512 v = _mm512_set1_ps(x);
#elif defined(MEMWALL_SIMD_256)
    const __m256 v = _mm256_set1_ps(x);
#else
    return vf{} + x;
#endif
#if defined(MEMWALL_SIMD_256)
    return reinterpret_cast<const vf&>(v);
#endif
}

// A non-temporal (streaming) store of one vector to `p`, aligned to the vector's size: the
// lines go to memory without being read first (no write-allocate) and without displacing the
// cache. stream_fence() orders them before what follows (another thread reading them).
inline void stream_store(float* p, vf v) {
#if defined(MEMWALL_SIMD_512)
    _mm512_stream_ps(p, reinterpret_cast<__m512&>(v));
#elif defined(MEMWALL_SIMD_256)
    _mm256_stream_ps(p, reinterpret_cast<__m256&>(v));
#elif defined(__x86_64__)
    __m128 half[2];
    std::memcpy(half, &v, sizeof v);
    _mm_stream_ps(p, half[0]);
    _mm_stream_ps(p + 4, half[1]);
#else
    std::memcpy(p, &v, sizeof v);
#endif
}
inline void stream_fence() {
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

// a * b + c with one rounding. ISO C++ mode (no -ffp-contract=fast) never fuses a * b + c by
// itself, and a blocked dot product wants the fused instruction.
inline vf fma(vf a, vf b, vf c) {
#if defined(MEMWALL_SIMD_512)
    const __m512 r =
        _mm512_fmadd_ps(reinterpret_cast<__m512&>(a), reinterpret_cast<__m512&>(b), reinterpret_cast<__m512&>(c));
    return reinterpret_cast<const vf&>(r);
#elif defined(MEMWALL_SIMD_FMA)
    const __m256 r =
        _mm256_fmadd_ps(reinterpret_cast<__m256&>(a), reinterpret_cast<__m256&>(b), reinterpret_cast<__m256&>(c));
    return reinterpret_cast<const vf&>(r);
#else
    return a * b + c;
#endif
}

// Vector registers of the ISA: what a register tile of accumulators may use.
#if defined(MEMWALL_SIMD_512)
inline constexpr int registers = 32;
#else
inline constexpr int registers = 16;
#endif

inline vf vmax(vf a, vf b) { return a > b ? a : b; }

inline float hmax(vf v) {
    float m = v[0];
    for (int i = 1; i < lanes; ++i) m = v[i] > m ? v[i] : m;
    return m;
}
// The lanes' sum, pairwise: log2(lanes) dependent adds where the lanes in order would chain
// lanes - 1 of them, the latency a dot product per key waits on.
inline float hsum(vf v) {
    using v8 = float __attribute__((vector_size(8 * sizeof(float))));
    using v4 = float __attribute__((vector_size(4 * sizeof(float))));
#if defined(MEMWALL_SIMD_512)
    const v8 x = __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7) +
                 __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15);
#else
    const v8 x = v;
#endif
    const v4 y = __builtin_shufflevector(x, x, 0, 1, 2, 3) + __builtin_shufflevector(x, x, 4, 5, 6, 7);
    return (y[0] + y[2]) + (y[1] + y[3]);
}

// 0, 1, ..., lanes-1: the column index of each lane, for masks.
inline vi iota() {
    vi v;
    for (int i = 0; i < lanes; ++i) v[i] = i;
    return v;
}

// The lanes of a comparison's result (all ones or all zeros each) as the bits of an integer,
// lane 0 the lowest: a scan visits only the lanes that matched.
inline unsigned mask_bits(vi m) {
#if defined(MEMWALL_SIMD_512)
    return _mm512_cmplt_epi32_mask(reinterpret_cast<__m512i&>(m), _mm512_setzero_si512());
#elif defined(MEMWALL_SIMD_256)
    return static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<__m256&>(m)));
#else
    unsigned bits = 0;
    for (int i = 0; i < lanes; ++i) bits |= (m[i] < 0 ? 1u : 0u) << i;
    return bits;
#endif
}

// 2^x with relative error below 2e-7 (Cephes exp2f polynomial on [-1/2, 1/2]). Exactly 0 for
// x < -126.5, so masked scores (-inf) give weight 0; saturates at 2^127; NaN stays NaN.
inline vf vexp2(vf x) {
    const vf hi = splat(127.0f);
    const vf lo = splat(-127.0f);
    vf xc = x < hi ? x : hi;
    xc = xc > lo ? xc : lo;
    // Round to nearest with the 1.5 * 2^23 trick: the sum's low mantissa bits hold the integer.
    const vf magic = splat(12582912.0f);
    const vf n = (xc + magic) - magic;
    const vf f = xc - n;
    vf p = splat(1.535336188319500e-4f);
    p = p * f + 1.339887440266574e-3f;
    p = p * f + 9.618437357674640e-3f;
    p = p * f + 5.550332471162809e-2f;
    p = p * f + 2.402264791363012e-1f;
    p = p * f + 6.931472028550421e-1f;
    p = p * f + 1.0f;
    // 2^n built in the exponent field; n = -127 gives the bit pattern of +0.
    const vi e = (__builtin_convertvector(n, vi) + 127) << 23;
    const vf r = p * __builtin_bit_cast(vf, e);
    return x == x ? r : x;
}

inline float exp2_scalar(float x) { return vexp2(splat(x))[0]; }

}  // namespace w512 or w256
}  // namespace memwall::kit::simd
