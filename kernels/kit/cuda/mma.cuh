// Warp-level matrix primitives for tensor-core kernels: mma.sync (bf16, f16, tf32), ldmatrix,
// stmatrix and cp.async, as inline PTX under nvcc (sm_80, sm_90) and as cuda-emu's exact
// emulation on the CPU (cuda_emu/warp_matrix.hpp, async_copy.hpp), with the same signatures.
// Fragment layouts are the PTX ISA's ("Matrix Fragments for mma.m16n8k16 with floating point
// type", "... mma.m16n8k8" for tf32; ldmatrix, stmatrix): with g = lane / 4 and t = lane % 4,
//   m16n8k16 A: a[r] holds row g + 8 (r & 1), columns 2t + 8 (r >> 1) and the next;
//            B: b[r] holds rows 2t + 8 r and the next, column g;
//   m16n8k8 (tf32) A: a[r] holds row g + 8 (r & 1), column t + 4 (r >> 1);
//            B: b[r] holds row t + 4 r, column g;
//   C/D (both): c[i] holds row g + 8 (i >> 1), column 2t + (i & 1).
// A .b32 register holds two 16-bit elements, the lower-indexed one in the low half.
#pragma once

#include <cstdint>

#include "kernels/kit/cuda/common.cuh"

#if !defined(__CUDACC__)
#include "cuda_emu/async_copy.hpp"
#include "cuda_emu/warp_matrix.hpp"
#endif

// Full unrolling of loops over register fragments, which nvcc can keep in registers only when
// every index is a constant; the host compiler has no such pragma and would warn.
#if defined(__CUDACC__)
#define MEMWALL_UNROLL _Pragma("unroll")
#else
#define MEMWALL_UNROLL
#endif

namespace memwall::kit::MEMWALL_CUDA_NS {

namespace detail {
// stmatrix made of shuffles and 16-byte stores, for GPUs without the instruction (sm_80):
// matrix k's row (lane % 8) as four words, stored by lane l / 8 == k. Every lane shuffles for
// every matrix, so the warp stays converged. Compiled for cuda-emu too, so its tests check it.
template <int N, bool Trans>
__device__ __forceinline__ void stmatrix_by_shuffles(void* row, const std::uint32_t (&r)[N]) {
    const int lane = static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % kWarpSize,
              i = lane % 8;
    for (int k = 0; k < N; ++k) {
        std::uint32_t w[4];
        if (!Trans) {
            // Row i of the fragment: lanes 4i..4i+3.
            for (int j = 0; j < 4; ++j) w[j] = __shfl_sync(kFullMask, r[k], 4 * i + j);
        } else {
            // Row i in memory is column i of the fragment: element c comes from lane
            // 4c + i / 2, half i % 2.
            for (int j = 0; j < 4; ++j) {
                const std::uint32_t lo = __shfl_sync(kFullMask, r[k], 4 * (2 * j) + i / 2);
                const std::uint32_t hi = __shfl_sync(kFullMask, r[k], 4 * (2 * j + 1) + i / 2);
                const int shift = 16 * (i % 2);
                w[j] = ((lo >> shift) & 0xffffu) | (((hi >> shift) & 0xffffu) << 16);
            }
        }
        if (lane / 8 == k) *static_cast<uint4*>(row) = make_uint4(w[0], w[1], w[2], w[3]);
    }
}
}  // namespace detail

#if defined(__CUDACC__)

// Two floats as bf16x2, each rounded to nearest even; lo in the low half.
__device__ __forceinline__ std::uint32_t pack_bf16x2(float lo, float hi) {
    std::uint32_t r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

// x rounded to tf32 (nearest, ties away from zero), as the bit pattern mma's tf32 form reads.
__device__ __forceinline__ std::uint32_t to_tf32(float x) {
    std::uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4],
                                                  const std::uint32_t (&b)[2], const float (&c)[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__device__ __forceinline__ void mma_m16n8k16_f16(float (&d)[4], const std::uint32_t (&a)[4],
                                                 const std::uint32_t (&b)[2], const float (&c)[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4],
                                                 const std::uint32_t (&b)[2], const float (&c)[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

namespace detail {
__device__ __forceinline__ unsigned shared_address(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
}  // namespace detail

// ldmatrix: lanes 0-7 give matrix 0's row addresses, 8-15 matrix 1's, ...; r[k] of lane l holds
// row l / 4, columns 2 (l % 4) and the next, of matrix k (of its transpose with _trans).
__device__ __forceinline__ void ldmatrix_x1(std::uint32_t (&r)[1], const void* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(detail::shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x2(std::uint32_t (&r)[2], const void* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(detail::shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(detail::shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x1_trans(std::uint32_t (&r)[1], const void* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(detail::shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x2_trans(std::uint32_t (&r)[2], const void* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(detail::shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(detail::shared_address(row)));
}

// stmatrix, the inverse of ldmatrix: the same lanes give the row addresses. sm_90 has the
// instruction; sm_80 gets the same stores from shuffles.
#if __CUDA_ARCH__ >= 900
__device__ __forceinline__ void stmatrix_x1(void* row, const std::uint32_t (&r)[1]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
                 :
                 : "r"(detail::shared_address(row)), "r"(r[0])
                 : "memory");
}
__device__ __forceinline__ void stmatrix_x2(void* row, const std::uint32_t (&r)[2]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};"
                 :
                 : "r"(detail::shared_address(row)), "r"(r[0]), "r"(r[1])
                 : "memory");
}
__device__ __forceinline__ void stmatrix_x4(void* row, const std::uint32_t (&r)[4]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                 :
                 : "r"(detail::shared_address(row)), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
}
__device__ __forceinline__ void stmatrix_x1_trans(void* row, const std::uint32_t (&r)[1]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
                 :
                 : "r"(detail::shared_address(row)), "r"(r[0])
                 : "memory");
}
__device__ __forceinline__ void stmatrix_x2_trans(void* row, const std::uint32_t (&r)[2]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};"
                 :
                 : "r"(detail::shared_address(row)), "r"(r[0]), "r"(r[1])
                 : "memory");
}
__device__ __forceinline__ void stmatrix_x4_trans(void* row, const std::uint32_t (&r)[4]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
                 :
                 : "r"(detail::shared_address(row)), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
}
#else
__device__ __forceinline__ void stmatrix_x1(void* row, const std::uint32_t (&r)[1]) {
    detail::stmatrix_by_shuffles<1, false>(row, r);
}
__device__ __forceinline__ void stmatrix_x2(void* row, const std::uint32_t (&r)[2]) {
    detail::stmatrix_by_shuffles<2, false>(row, r);
}
__device__ __forceinline__ void stmatrix_x4(void* row, const std::uint32_t (&r)[4]) {
    detail::stmatrix_by_shuffles<4, false>(row, r);
}
__device__ __forceinline__ void stmatrix_x1_trans(void* row, const std::uint32_t (&r)[1]) {
    detail::stmatrix_by_shuffles<1, true>(row, r);
}
__device__ __forceinline__ void stmatrix_x2_trans(void* row, const std::uint32_t (&r)[2]) {
    detail::stmatrix_by_shuffles<2, true>(row, r);
}
__device__ __forceinline__ void stmatrix_x4_trans(void* row, const std::uint32_t (&r)[4]) {
    detail::stmatrix_by_shuffles<4, true>(row, r);
}
#endif

// cp.async: global to shared, landing at cp_async_wait<N> (data read before it may be stale).
template <int Bytes>
__device__ __forceinline__ void cp_async_ca(void* smem, const void* gmem) {
    static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
                 :
                 : "r"(detail::shared_address(smem)), "l"(gmem), "n"(Bytes));
}
__device__ __forceinline__ void cp_async_cg(void* smem, const void* gmem) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" : : "r"(detail::shared_address(smem)), "l"(gmem));
}
// Copies src_bytes (0 to 16) and fills the rest of the 16 with zeros.
__device__ __forceinline__ void cp_async_cg_zfill(void* smem, const void* gmem, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                 :
                 : "r"(detail::shared_address(smem)), "l"(gmem), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;"); }
// Waits until at most N of this thread's committed groups are pending. The memory clobber
// keeps the compiler from reading the stage before.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    static_assert(N >= 0, "cp.async.wait_group takes a count of groups, 0 or more");
    asm volatile("cp.async.wait_group %0;" : : "n"(N) : "memory");
}

#else  // cuda-emu: every call carries its call site, for the emulator's error messages.

using EmuSite = ::memwall::emu::detail::Site;

inline std::uint32_t pack_bf16x2(float lo, float hi) {
    return static_cast<std::uint32_t>(__nv_bfloat16(lo).__x) | static_cast<std::uint32_t>(__nv_bfloat16(hi).__x) << 16;
}
inline std::uint32_t to_tf32(float x) { return ::memwall::emu::round_to_tf32(x); }

inline void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                              const float (&c)[4], EmuSite site = EmuSite::here()) {
    ::memwall::emu::mma(::memwall::emu::MmaType::bf16, d, a, b, c, site);
}
inline void mma_m16n8k16_f16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                             const float (&c)[4], EmuSite site = EmuSite::here()) {
    ::memwall::emu::mma(::memwall::emu::MmaType::f16, d, a, b, c, site);
}
inline void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                             const float (&c)[4], EmuSite site = EmuSite::here()) {
    ::memwall::emu::mma(::memwall::emu::MmaType::tf32, d, a, b, c, site);
}

inline void ldmatrix_x1(std::uint32_t (&r)[1], const void* row, EmuSite site = EmuSite::here()) {
    ::memwall::emu::ldmatrix(r, 1, false, row, site);
}
inline void ldmatrix_x2(std::uint32_t (&r)[2], const void* row, EmuSite site = EmuSite::here()) {
    ::memwall::emu::ldmatrix(r, 2, false, row, site);
}
inline void ldmatrix_x4(std::uint32_t (&r)[4], const void* row, EmuSite site = EmuSite::here()) {
    ::memwall::emu::ldmatrix(r, 4, false, row, site);
}
inline void ldmatrix_x1_trans(std::uint32_t (&r)[1], const void* row, EmuSite site = EmuSite::here()) {
    ::memwall::emu::ldmatrix(r, 1, true, row, site);
}
inline void ldmatrix_x2_trans(std::uint32_t (&r)[2], const void* row, EmuSite site = EmuSite::here()) {
    ::memwall::emu::ldmatrix(r, 2, true, row, site);
}
inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* row, EmuSite site = EmuSite::here()) {
    ::memwall::emu::ldmatrix(r, 4, true, row, site);
}

inline void stmatrix_x1(void* row, const std::uint32_t (&r)[1], EmuSite site = EmuSite::here()) {
    ::memwall::emu::stmatrix(row, r, 1, false, site);
}
inline void stmatrix_x2(void* row, const std::uint32_t (&r)[2], EmuSite site = EmuSite::here()) {
    ::memwall::emu::stmatrix(row, r, 2, false, site);
}
inline void stmatrix_x4(void* row, const std::uint32_t (&r)[4], EmuSite site = EmuSite::here()) {
    ::memwall::emu::stmatrix(row, r, 4, false, site);
}
inline void stmatrix_x1_trans(void* row, const std::uint32_t (&r)[1], EmuSite site = EmuSite::here()) {
    ::memwall::emu::stmatrix(row, r, 1, true, site);
}
inline void stmatrix_x2_trans(void* row, const std::uint32_t (&r)[2], EmuSite site = EmuSite::here()) {
    ::memwall::emu::stmatrix(row, r, 2, true, site);
}
inline void stmatrix_x4_trans(void* row, const std::uint32_t (&r)[4], EmuSite site = EmuSite::here()) {
    ::memwall::emu::stmatrix(row, r, 4, true, site);
}

template <int Bytes>
void cp_async_ca(void* smem, const void* gmem, EmuSite site = EmuSite::here()) {
    static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
    ::memwall::emu::cp_async(smem, gmem, Bytes, Bytes, ::memwall::emu::CacheOp::ca, site);
}
inline void cp_async_cg(void* smem, const void* gmem, EmuSite site = EmuSite::here()) {
    ::memwall::emu::cp_async(smem, gmem, 16, 16, ::memwall::emu::CacheOp::cg, site);
}
inline void cp_async_cg_zfill(void* smem, const void* gmem, int src_bytes, EmuSite site = EmuSite::here()) {
    ::memwall::emu::cp_async(smem, gmem, 16, src_bytes, ::memwall::emu::CacheOp::cg, site);
}
inline void cp_async_commit(EmuSite site = EmuSite::here()) { ::memwall::emu::cp_async_commit(site); }
template <int N>
void cp_async_wait(EmuSite site = EmuSite::here()) {
    static_assert(N >= 0, "cp.async.wait_group takes a count of groups, 0 or more");
    ::memwall::emu::cp_async_wait(N, site);
}

#endif

}  // namespace memwall::kit::MEMWALL_CUDA_NS
