// Checks of the warp matrix primitives against the PTX ISA's fragment tables, written here
// apart from the emulator's, for cuda-emu (mma_test.cpp) and a GPU (gpu_mma_test.cpp) alike.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "mma_probe.hpp"

namespace memwall::kit_test {

// One build's probe launchers.
struct Probes {
    decltype(&cuda_emu::ldmatrix_probe) ldmatrix;
    decltype(&cuda_emu::stmatrix_probe) stmatrix;
    decltype(&cuda_emu::mma_probe) mma;
    decltype(&cuda_emu::convert_probe) convert;
};

// The tables, with g = lane / 4 and t = lane % 4 (PTX ISA, "Matrix Fragments for mma.m16n8k16
// with floating point type" and "... for mma.m16n8k8" .tf32; ldmatrix's description).
struct Cell {
    int row, col;
};
inline Cell a16(int lane, int i) {  // element i of a0..a7: register i / 2, half i % 2
    const int g = lane / 4, t = lane % 4;
    return {g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)};
}
inline Cell b16(int lane, int i) {  // b0..b3
    const int g = lane / 4, t = lane % 4;
    return {2 * t + (i & 1) + 8 * (i >> 1), g};
}
inline Cell a8(int lane, int i) {  // tf32 a0..a3, one per register
    const int g = lane / 4, t = lane % 4;
    return {g + 8 * (i & 1), t + 4 * (i >> 1)};
}
inline Cell b8(int lane, int i) {  // tf32 b0, b1
    const int g = lane / 4, t = lane % 4;
    return {t + 4 * i, g};
}
inline Cell c16x8(int lane, int i) {  // c0..c3 and d0..d3 of both shapes
    const int g = lane / 4, t = lane % 4;
    return {g + 8 * (i >> 1), 2 * t + (i & 1)};
}

inline std::uint16_t bf16_bits(float x) {  // round to nearest even (finite x)
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
inline std::uint16_t f16_bits(float x) {  // x normal in f16 and exactly representable
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    if ((u & 0x7fffffffu) == 0) return static_cast<std::uint16_t>(u >> 16);
    const std::uint32_t exponent = ((u >> 23) & 0xffu) - 127 + 15;
    return static_cast<std::uint16_t>((u >> 16 & 0x8000u) | exponent << 10 | (u >> 13 & 0x3ffu));
}
inline std::uint32_t tf32_bits(float x) {  // cvt.rna: ties away from zero (finite x)
    return (std::bit_cast<std::uint32_t>(x) + 0x1000u) & 0xffffe000u;
}
inline float bf16_value(float x) { return std::bit_cast<float>(std::uint32_t{bf16_bits(x)} << 16); }
inline float tf32_value(float x) { return std::bit_cast<float>(tf32_bits(x)); }

// ldmatrix and stmatrix for count 1, 2, 4, with and without .trans: element (r, c) of matrix k
// is 64k + 8r + c + 1, so every register half names the one element it holds.
inline void check_ldmatrix(const Probes& p) {
    for (int count : {1, 2, 4}) {
        for (bool trans : {false, true}) {
            std::vector<std::uint16_t> m(64u * static_cast<unsigned>(count));
            for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<std::uint16_t>(i + 1);
            const std::vector<std::uint32_t> r = p.ldmatrix(count, trans, m);
            for (int k = 0; k < count; ++k)
                for (int lane = 0; lane < 32; ++lane) {
                    const int row = lane / 4, col = 2 * (lane % 4);
                    auto at = [&](int rr, int cc) { return std::uint32_t{m[64 * k + 8 * rr + cc]}; };
                    const std::uint32_t want =
                        trans ? at(col, row) | at(col + 1, row) << 16 : at(row, col) | at(row, col + 1) << 16;
                    ASSERT_EQ(r[32 * k + lane], want)
                        << "ldmatrix.x" << count << (trans ? ".trans" : "") << " lane " << lane << " r[" << k << "]";
                }
        }
    }
}

// shuffles: the stand-in for stmatrix that sm_80 compiles.
inline void check_stmatrix(const Probes& p, bool shuffles) {
    for (int count : {1, 2, 4}) {
        for (bool trans : {false, true}) {
            std::vector<std::uint32_t> regs(32u * static_cast<unsigned>(count));
            for (std::size_t i = 0; i < regs.size(); ++i)
                regs[i] = static_cast<std::uint32_t>(2 * i + 1) | static_cast<std::uint32_t>(2 * i + 2) << 16;
            const std::vector<std::uint16_t> m = p.stmatrix(count, trans, shuffles, regs);
            for (int k = 0; k < count; ++k)
                for (int lane = 0; lane < 32; ++lane)
                    for (int h = 0; h < 2; ++h) {
                        const int row = lane / 4, col = 2 * (lane % 4) + h;
                        const auto want = static_cast<std::uint16_t>(regs[32 * k + lane] >> (16 * h));
                        const std::size_t at = 64 * k + (trans ? 8 * col + row : 8 * row + col);
                        ASSERT_EQ(m[at], want)
                            << (shuffles ? "shuffled " : "") << "stmatrix.x" << count << (trans ? ".trans" : "")
                            << " lane " << lane << " r[" << k << "] half " << h;
                    }
        }
    }
}

// A (16 x K), B (K x 8), C (16 x 8) row-major, as fragments by the tables; kind 0 bf16, 1 f16,
// 2 tf32. Values must be exact in the kind's type.
struct Fragments {
    std::vector<std::uint32_t> a = std::vector<std::uint32_t>(128), b = std::vector<std::uint32_t>(64);
    std::vector<float> c = std::vector<float>(128);
};
inline Fragments fragments(int kind, const std::vector<float>& A, const std::vector<float>& B,
                           const std::vector<float>& C) {
    const int K = kind == 2 ? 8 : 16;
    auto bits = [&](float x) -> std::uint32_t { return kind == 0 ? bf16_bits(x) : f16_bits(x); };
    Fragments f;
    for (int lane = 0; lane < 32; ++lane) {
        if (kind == 2) {
            for (int i = 0; i < 4; ++i) f.a[32 * i + lane] = tf32_bits(A[K * a8(lane, i).row + a8(lane, i).col]);
            for (int i = 0; i < 2; ++i) f.b[32 * i + lane] = tf32_bits(B[8 * b8(lane, i).row + b8(lane, i).col]);
        } else {
            for (int i = 0; i < 8; ++i)
                f.a[32 * (i / 2) + lane] |= bits(A[K * a16(lane, i).row + a16(lane, i).col]) << (16 * (i % 2));
            for (int i = 0; i < 4; ++i)
                f.b[32 * (i / 2) + lane] |= bits(B[8 * b16(lane, i).row + b16(lane, i).col]) << (16 * (i % 2));
        }
        for (int i = 0; i < 4; ++i) f.c[32 * i + lane] = C[8 * c16x8(lane, i).row + c16x8(lane, i).col];
    }
    return f;
}

// Multiples of 1/64 in [-2, 2]: exact in bf16, f16 and tf32, and every sum of the products exact
// in fp32, so D is exact whatever the order of accumulation, on a GPU too. Distinct values make
// a wrong fragment index change D.
inline void check_mma_exact(const Probes& p) {
    std::mt19937 rng(42);
    std::uniform_int_distribution<int> v(-128, 128);
    for (int kind : {0, 1, 2}) {
        const int K = kind == 2 ? 8 : 16;
        std::vector<float> A(16u * K), B(K * 8u), C(128);
        for (float& x : A) x = static_cast<float>(v(rng)) / 64;
        for (float& x : B) x = static_cast<float>(v(rng)) / 64;
        for (float& x : C) x = static_cast<float>(v(rng)) / 64;
        const Fragments f = fragments(kind, A, B, C);
        const std::vector<float> d = p.mma(kind, f.a, f.b, f.c);
        for (int lane = 0; lane < 32; ++lane)
            for (int i = 0; i < 4; ++i) {
                const auto [m, n] = c16x8(lane, i);
                double want = C[8 * m + n];
                for (int k = 0; k < K; ++k) want += static_cast<double>(A[K * m + k]) * B[8 * k + n];
                ASSERT_EQ(d[32 * i + lane], static_cast<float>(want))
                    << "kind " << kind << " lane " << lane << " d[" << i << "] = D[" << m << "][" << n << "]";
            }
    }
}

// Random inputs rounded to bf16 and tf32 (f16: multiples of 2^-10 in [-2, 2]) against a float64
// reference of the rounded inputs: fp32 accumulation of K terms.
inline void check_mma_rounded(const Probes& p) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-2.0f, 2.0f);
    for (int kind : {0, 1, 2}) {
        const int K = kind == 2 ? 8 : 16;
        auto input = [&] {
            const float x = u(rng);
            return kind == 0 ? bf16_value(x) : kind == 1 ? std::round(x * 1024) / 1024 : tf32_value(x);
        };
        std::vector<float> A(16u * K), B(K * 8u), C(128);
        for (float& x : A) x = input();
        for (float& x : B) x = input();
        for (float& x : C) x = u(rng);
        const Fragments f = fragments(kind, A, B, C);
        const std::vector<float> d = p.mma(kind, f.a, f.b, f.c);
        for (int lane = 0; lane < 32; ++lane)
            for (int i = 0; i < 4; ++i) {
                const auto [m, n] = c16x8(lane, i);
                double want = C[8 * m + n], magnitude = std::fabs(want);
                for (int k = 0; k < K; ++k) {
                    const double term = static_cast<double>(A[K * m + k]) * B[8 * k + n];
                    want += term;
                    magnitude += std::fabs(term);
                }
                ASSERT_NEAR(d[32 * i + lane], want, 1e-6 * K * magnitude)
                    << "kind " << kind << " lane " << lane << " d[" << i << "]";
            }
    }
}

// pack_bf16x2 (nearest even) and to_tf32 (nearest, ties away), ties included.
inline void check_conversions(const Probes& p) {
    std::vector<float> x(64);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
    for (float& v : x) v = u(rng);
    const float tie_bf16 = 1.0f + std::ldexp(1.0f, -8), tie_tf32 = 1.0f + std::ldexp(1.0f, -11);
    x[0] = tie_bf16;
    x[1] = -tie_bf16;
    x[2] = 1.0f + 3 * std::ldexp(1.0f, -8);  // a tie that rounds up to even
    x[3] = tie_tf32;
    x[4] = -tie_tf32;
    x[5] = 1.0f + 3 * std::ldexp(1.0f, -11);
    const std::vector<std::uint32_t> r = p.convert(x);
    for (int i = 0; i < 32; ++i) {
        EXPECT_EQ(r[i], std::uint32_t{bf16_bits(x[2 * i])} | std::uint32_t{bf16_bits(x[2 * i + 1])} << 16)
            << "pack_bf16x2(" << x[2 * i] << ", " << x[2 * i + 1] << ")";
        EXPECT_EQ(r[32 + i], tf32_bits(x[i])) << "to_tf32(" << x[i] << ")";
    }
    EXPECT_EQ(r[0], 0xbf803f80u);       // both ties of 1 + 2^-8 to 1 (even)
    EXPECT_EQ(r[32 + 3], 0x3f802000u);  // 1 + 2^-11 away from zero to 1 + 2^-10
    EXPECT_EQ(r[32 + 4], 0xbf802000u);
}

}  // namespace memwall::kit_test
