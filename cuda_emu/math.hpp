// CUDA's device math intrinsics for host compilers. The C functions (expf, exp2f, fmaxf, fmaf,
// ...) come from <cmath>; the fast approximations (__expf, __fdividef, ...) are computed
// exactly here, so emulated results can differ from a GPU's in the last bits.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) {
    *s = std::sin(x);
    *c = std::cos(x);
}
inline float __fdividef(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }  // NaN -> 0

inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(std::nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }

inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }

inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1; }
inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1u);
    return r;
}
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
// Byte i of the result is byte s[4i+2:4i] of the 8 bytes {y, x} (x the low word).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned r = 0;
    for (unsigned i = 0; i < 4; ++i) {
        const unsigned sel = (s >> (4 * i)) & 7u;
        r |= static_cast<unsigned>((bytes >> (8 * sel)) & 0xffu) << (8 * i);
    }
    return r;
}

// CUDA's global min/max overloads.
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
