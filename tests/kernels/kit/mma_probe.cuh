// Probe kernels of kit/cuda/mma.cuh, one warp each: what every lane's fragment registers hold
// after ldmatrix, what stmatrix writes, mma.sync's results from given fragments, cp.async's
// landing, and (cuda-emu only) the rule breaks the emulator reports.
#pragma once

#include <cstdint>

#include "kernels/kit/cuda/mma.cuh"

namespace memwall::kit_test::MEMWALL_CUDA_NS {

using namespace ::memwall::kit::MEMWALL_CUDA_NS;

// Where row r of matrix k sits in shared memory, in 16-byte slots: scrambled, so a kernel that
// ignored the lanes' row addresses would read the wrong rows.
__device__ __forceinline__ int probe_slot(int k, int r, int count) { return (5 * (8 * k + r) + 3) % (8 * count); }

template <int Count>
__device__ __forceinline__ void ldmatrix_n(std::uint32_t (&r)[Count], const void* row, bool trans) {
    if constexpr (Count == 1) {
        if (trans)
            ldmatrix_x1_trans(r, row);
        else
            ldmatrix_x1(r, row);
    } else if constexpr (Count == 2) {
        if (trans)
            ldmatrix_x2_trans(r, row);
        else
            ldmatrix_x2(r, row);
    } else {
        if (trans)
            ldmatrix_x4_trans(r, row);
        else
            ldmatrix_x4(r, row);
    }
}

template <int Count>
__device__ __forceinline__ void stmatrix_n(void* row, const std::uint32_t (&r)[Count], bool trans) {
    if constexpr (Count == 1) {
        if (trans)
            stmatrix_x1_trans(row, r);
        else
            stmatrix_x1(row, r);
    } else if constexpr (Count == 2) {
        if (trans)
            stmatrix_x2_trans(row, r);
        else
            stmatrix_x2(row, r);
    } else {
        if (trans)
            stmatrix_x4_trans(row, r);
        else
            stmatrix_x4(row, r);
    }
}

// matrices: Count 8x8 matrices of 16-bit elements, row-major; out[32 * k + lane] = r[k].
// Lanes past 8 * Count pass no address (ldmatrix ignores theirs).
template <int Count>
__global__ void ldmatrix_kernel(const std::uint16_t* matrices, std::uint32_t* out, bool trans) {
    MEMWALL_DYNAMIC_SHARED(std::uint16_t, s);
    const int lane = static_cast<int>(threadIdx.x);
    const int k = lane / 8, r = lane % 8;
    const std::uint16_t* row = nullptr;
    if (lane < 8 * Count) {
        std::uint16_t* slot = s + 8 * probe_slot(k, r, Count);
        for (int j = 0; j < 8; ++j) slot[j] = matrices[64 * k + 8 * r + j];
        row = slot;
    }
    __syncwarp();
    std::uint32_t regs[Count];
    ldmatrix_n<Count>(regs, row, trans);
    for (int m = 0; m < Count; ++m) out[32 * m + lane] = regs[m];
}

// regs[32 * k + lane] is the lane's r[k]; matrices receives the Count 8x8 matrices stored, by
// stmatrix or by the shuffles that stand in for it below sm_90.
template <int Count>
__global__ void stmatrix_kernel(const std::uint32_t* regs, std::uint16_t* matrices, bool trans, bool shuffles) {
    MEMWALL_DYNAMIC_SHARED(std::uint16_t, s);
    const int lane = static_cast<int>(threadIdx.x);
    const int k = lane / 8, r = lane % 8;
    std::uint32_t in[Count];
    for (int m = 0; m < Count; ++m) in[m] = regs[32 * m + lane];
    std::uint16_t* slot = lane < 8 * Count ? s + 8 * probe_slot(k, r, Count) : nullptr;
    if (!shuffles)
        stmatrix_n<Count>(slot, in, trans);
    else if (trans)
        ::memwall::kit::MEMWALL_CUDA_NS::detail::stmatrix_by_shuffles<Count, true>(slot, in);
    else
        ::memwall::kit::MEMWALL_CUDA_NS::detail::stmatrix_by_shuffles<Count, false>(slot, in);
    __syncwarp();
    if (lane < 8 * Count)
        for (int j = 0; j < 8; ++j) matrices[64 * k + 8 * r + j] = slot[j];
}

// kind 0 bf16, 1 f16, 2 tf32; a[32 * i + lane] is the lane's a[i] (b, c, d alike).
__global__ void mma_kernel(int kind, const std::uint32_t* a, const std::uint32_t* b, const float* c, float* d) {
    const int lane = static_cast<int>(threadIdx.x);
    std::uint32_t fa[4], fb[2];
    float fc[4], fd[4];
    for (int i = 0; i < 4; ++i) fa[i] = a[32 * i + lane];
    for (int i = 0; i < 2; ++i) fb[i] = b[32 * i + lane];
    for (int i = 0; i < 4; ++i) fc[i] = c[32 * i + lane];
    if (kind == 0)
        mma_m16n8k16_bf16(fd, fa, fb, fc);
    else if (kind == 1)
        mma_m16n8k16_f16(fd, fa, fb, fc);
    else
        mma_m16n8k8_tf32(fd, fa, fb, fc);
    for (int i = 0; i < 4; ++i) d[32 * i + lane] = fd[i];
}

// packed[i] = pack_bf16x2(x[2i], x[2i + 1]), tf32[i] = to_tf32(x[i]) for i < 32, one warp.
__global__ void convert_kernel(const float* x, std::uint32_t* packed, std::uint32_t* tf32) {
    const int i = static_cast<int>(threadIdx.x);
    packed[i] = pack_bf16x2(x[2 * i], x[2 * i + 1]);
    tf32[i] = to_tf32(x[i]);
}

// cp.async's groups, per lane: words 0-3 of out[16 * lane ...] (see the launcher) record each
// stage before and after the waits. g holds 16 distinct words per lane.
__global__ void cp_async_kernel(const std::uint32_t* g, std::uint32_t* out) {
    MEMWALL_DYNAMIC_SHARED(std::uint32_t, s);
    const int lane = static_cast<int>(threadIdx.x);
    std::uint32_t* a = s + lane;            // 4 bytes, .ca
    std::uint32_t* b = s + 32 + 2 * lane;   // 8 bytes, .ca
    std::uint32_t* c = s + 96 + 4 * lane;   // 16 bytes, .cg
    std::uint32_t* z = s + 224 + 4 * lane;  // 16 bytes, .cg with zero fill
    for (int i = 0; i < 4; ++i) c[i] = z[i] = 0xdeadu;
    a[0] = b[0] = b[1] = 0xdeadu;
    const std::uint32_t* src = g + 16 * lane;
    std::uint32_t* o = out + 16 * lane;
    cp_async_ca<4>(a, src);
    cp_async_commit();  // group 0: a
    cp_async_ca<8>(b, src + 4);
    cp_async_cg(c, src + 8);
    cp_async_commit();                          // group 1: b, c
    cp_async_cg_zfill(z, src + 12, lane % 17);  // not committed yet
    o[0] = a[0];                                // before any wait: stale
    cp_async_wait<1>();
    o[1] = a[0];  // group 0 landed
    o[2] = b[1];  // group 1 not yet
    cp_async_wait<0>();
    o[3] = b[0];
    o[4] = b[1];
    for (int i = 0; i < 4; ++i) o[5 + i] = c[i];
    o[9] = z[0];  // uncommitted: never landed
    cp_async_commit();
    cp_async_wait<0>();
    for (int i = 0; i < 4; ++i) o[10 + i] = z[i];
}

// Traffic and FLOPs of one warp: 16 bytes per lane by cp.async (twice, .cg or .ca), ldmatrix.x4
// of them, one bf16 and one tf32 mma.sync, stmatrix.x2 and 4 floats stored per lane.
__global__ void counted_kernel(const std::uint16_t* g, float* out, bool ca) {
    MEMWALL_DYNAMIC_SHARED(std::uint16_t, s);
    const int lane = static_cast<int>(threadIdx.x);
    for (int pass = 0; pass < 2; ++pass) {
        if (ca)
            cp_async_ca<16>(s + 8 * lane, g + 8 * lane);
        else
            cp_async_cg(s + 8 * lane, g + 8 * lane);
    }
    cp_async_commit();
    cp_async_wait<0>();
    __syncwarp();
    std::uint32_t r[4];
    ldmatrix_x4(r, s + 8 * lane);
    const std::uint32_t b[2] = {r[0], r[1]};
    const float c[4] = {0, 0, 0, 0};
    float d[4];
    mma_m16n8k16_bf16(d, r, b, c);
    mma_m16n8k8_tf32(d, r, b, d);
    const std::uint32_t st[2] = {r[2], r[3]};
    stmatrix_x2(lane < 16 ? s + 256 + 8 * lane : nullptr, st);
    for (int i = 0; i < 4; ++i) out[4 * lane + i] = d[i];
}

// Rule breaks, by mode (cuda-emu reports each; launched with 32 threads unless said).
__global__ void matrix_fault_kernel(int mode, const std::uint32_t* g) {
    MEMWALL_DYNAMIC_SHARED(std::uint16_t, s);
    const int lane = static_cast<int>(threadIdx.x);
    std::uint32_t a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
    float c[4] = {0, 0, 0, 0}, d[4];
    switch (mode) {
        case 0:  // a lane returned; also a block of 16 threads (a partial warp)
            if (lane == 31) return;
            mma_m16n8k16_bf16(d, a, b, c);
            break;
        case 1:  // a row in global memory
        {
            std::uint32_t one[1];
            ldmatrix_x1(one, lane == 3 ? static_cast<const void*>(g) : s + 8 * lane);
            break;
        }
        case 2:  // a row not 16-byte aligned
            ldmatrix_x4(a, s + 8 * lane + (lane == 5 ? 4 : 0));
            break;
        case 3:  // a source not aligned to the copy's size
            cp_async_ca<16>(s + 8 * lane, g + 1);
            break;
        case 4:  // a source size over 16
            cp_async_cg_zfill(s + 8 * lane, g, 17);
            break;
        case 5:  // a source outside device memory
            cp_async_ca<4>(s + 8 * lane, a);
            break;
        case 6:  // lanes at two different mma.sync
            if (lane < 16)
                mma_m16n8k16_bf16(d, a, b, c);
            else
                mma_m16n8k16_bf16(d, a, b, c);
            break;
        default: break;
    }
}

}  // namespace memwall::kit_test::MEMWALL_CUDA_NS
