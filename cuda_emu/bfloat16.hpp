// bfloat16 for kernels: cuda_bf16.h's __nv_bfloat16 under nvcc, a small stand-in with the same
// name and conversion functions on the CPU. Arithmetic goes through float, as on sm_80+ for
// most operators; conversions round to nearest even and keep NaNs quiet, as CUDA's do.
#pragma once

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#else

#include <bit>
#include <cstdint>

struct __nv_bfloat16 {
    unsigned short __x;  // the raw bits (CUDA's member name)

    __nv_bfloat16() = default;
    __nv_bfloat16(float f) : __x(from_float(f)) {}
    operator float() const { return std::bit_cast<float>(static_cast<std::uint32_t>(__x) << 16); }

    static unsigned short from_float(float f) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
        if ((u & 0x7fffffffu) > 0x7f800000u)  // NaN: keep the sign, make it quiet
            return static_cast<unsigned short>((u >> 16) | 0x0040u);
        const std::uint32_t rounded = u + 0x7fffu + ((u >> 16) & 1u);
        return static_cast<unsigned short>(rounded >> 16);
    }
};

inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 h) { return static_cast<float>(h); }

#endif
