// The tensor-core GEMM under implicit_gemm_tc and im2win_tc: C (BM filters x BN pixels) = A (the
// filter's rows) x B (the pixels' windows), depth R*S*C, fp32 accumulators, on mma.sync m16n8k16
// (bf16) or m16n8k8 (tf32). The operands differ only in where a pixel's window comes from, which
// the kernels give as a loader of B's chunks (tc_tiles.hpp has the layouts and tiles).
//
// Both operands come to shared memory by cp.async, 16-byte chunks, zero-filled past the last
// filter, pixel or depth and where a tap reads padding, through STAGES buffers, so the copy of a
// stage overlaps the products of the ones before it. A stage is 64 bytes of each row's depth:
// 4 chunks, which an mma reads 2 at a time. ldmatrix .x4 reads 16 rows x 2 chunks: A's fragment
// (rows +0/+8, chunks +0/+1), or two n8 B fragments (rows +0/+8 the two, chunks +0/+1 the
// registers). The PTX fragment tables make this one address pattern for both types: a 16-byte
// ldmatrix row is 8 bf16 or 4 tf32 elements, and lane l receives row l / 4 and, as 32-bit words,
// column l % 4 of each 8 x 16-byte matrix, which is where m16n8k8's tf32 A and B want them.
#pragma once

#include <cstdint>

#include "kernels/conv/cuda/common.cuh"
#include "kernels/kit/cuda/mma.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// The element type T's mma over one 32-byte step of depth (2 chunks): bf16's m16n8k16 as is;
// fp32 storage rounded to tf32 (to nearest, as cuDNN's TF32 mode) for m16n8k8.
__device__ __forceinline__ void tc_mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                       __nv_bfloat16) {
    mma_m16n8k16_bf16(d, a, b, d);
}
__device__ __forceinline__ void tc_mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], float) {
    const std::uint32_t ra[4] = {to_tf32(__uint_as_float(a[0])), to_tf32(__uint_as_float(a[1])),
                                 to_tf32(__uint_as_float(a[2])), to_tf32(__uint_as_float(a[3]))};
    const std::uint32_t rb[2] = {to_tf32(__uint_as_float(b[0])), to_tf32(__uint_as_float(b[1]))};
    mma_m16n8k8_tf32(d, ra, rb, d);
}

inline constexpr int kTcStageChunks = 4;  // kConvTcStageBytes / kConvTcChunkBytes

// Chunk c of row `row` of a tile of 4-chunk (64-byte) rows: two rows share a 128-byte line, so
// the chunk is XORed with the line's index mod 4. An ldmatrix matrix (8 rows, one chunk column)
// then covers the 8 16-byte slots of 128 bytes once, as does a warp's cp.async of 8 rows: no bank
// conflicts. Unswizzled, the 8 rows would use 2 slots (4-way conflicts).
__device__ __forceinline__ int tc_swizzled(int row, int chunk) {
    return row * kTcStageChunks + (chunk ^ ((row >> 1) & 3));
}

// B rows a thread copies (tc_gemm's b_chunk i = 0 .. kTcBRows - 1), and the pixel of its i-th:
// the thread's chunks of a stage sit one row of 4 chunks per 128 threads apart.
template <int BN>
inline constexpr int kTcBRows = BN* kTcStageChunks / (kConvTcWarps * kWarpSize);
template <int BN>
__device__ __forceinline__ long long tc_b_pixel(int i) {
    return static_cast<long long>(blockIdx.x) * BN + (thread_index() + i * kConvTcWarps * kWarpSize) / kTcStageChunks;
}

// Loads stage after stage of A and B and multiplies them; writes C to `out` (NHWC: pixel-major,
// the filters of a pixel contiguous) as T. A is the filter, `depth` elements per filter row;
// `b_chunk(i, d, dst)` issues the cp.async into `dst` of the chunk at depth d of this thread's
// i-th B row (pixel tc_b_pixel<BN>(i)), zero-filled where it reads nothing.
template <class T, int BM, int BN, int STAGES, class BChunk>
__device__ __forceinline__ void tc_gemm(int filters, int depth, long long pixels, const T* filter, T* out,
                                        BChunk b_chunk) {
    constexpr int threads = kConvTcWarps * kWarpSize, per_chunk = kConvTcChunkBytes / static_cast<int>(sizeof(T));
    constexpr int WM = BM / 2, WN = BN / 2;  // a warp's tile; warps 2 x 2
    static_assert(WM % 16 == 0 && WN % 16 == 0, "whole m16 tiles and pairs of n8 tiles per warp");
    static_assert(BM * kTcStageChunks % threads == 0 && BN * kTcStageChunks % threads == 0,
                  "every thread copies the same number of chunks");
    MEMWALL_DYNAMIC_SHARED(uint4, smem);
    uint4* const as = smem;                               // STAGES tiles of BM rows
    uint4* const bs = as + STAGES * BM * kTcStageChunks;  // STAGES tiles of BN rows

    const int tid = thread_index(), lane = tid % kWarpSize, warp = tid / kWarpSize;
    const int k0 = static_cast<int>(blockIdx.y) * BM;
    const long long m0 = static_cast<long long>(blockIdx.x) * BN;
    const int stages_total = (depth + per_chunk * kTcStageChunks - 1) / (per_chunk * kTcStageChunks);
    // A thread's chunks sit in one chunk column (threads is a multiple of 4).
    const int chunk = tid % kTcStageChunks;

    auto copy_stage = [&](int j) {
        uint4* const a = as + (j % STAGES) * BM * kTcStageChunks;
        uint4* const b = bs + (j % STAGES) * BN * kTcStageChunks;
        const int d = (j * kTcStageChunks + chunk) * per_chunk;
        MEMWALL_UNROLL
        for (int i = 0; i < BM * kTcStageChunks / threads; ++i) {
            const int row = (tid + i * threads) / kTcStageChunks;
            const bool in = k0 + row < filters && d < depth;
            cp_async_cg_zfill(a + tc_swizzled(row, chunk),
                              filter + (in ? static_cast<long long>(k0 + row) * depth + d : 0), in ? 16 : 0);
        }
        MEMWALL_UNROLL
        for (int i = 0; i < BN * kTcStageChunks / threads; ++i) {
            b_chunk(i, d, b + tc_swizzled((tid + i * threads) / kTcStageChunks, chunk));
        }
    };
    MEMWALL_UNROLL
    for (int j = 0; j < STAGES - 1; ++j) {
        if (j < stages_total) copy_stage(j);
        cp_async_commit();  // empty groups too: wait<STAGES - 1> below counts STAGES - 1 behind
    }

    const int wm = (warp % 2) * WM, wn = (warp / 2) * WN;
    const int mat = lane / 8, mat_row = lane % 8;  // ldmatrix .x4: lane l gives row l % 8 of matrix l / 8
    float acc[WM / 16][WN / 8][4];
    MEMWALL_UNROLL
    for (int i = 0; i < WM / 16; ++i) {
        MEMWALL_UNROLL
        for (int n = 0; n < WN / 8; ++n) {
            MEMWALL_UNROLL
            for (int e = 0; e < 4; ++e) acc[i][n][e] = 0.0f;
        }
    }

    for (int j = 0; j < stages_total; ++j) {
        __syncthreads();  // every warp is done with the stage that stage j + STAGES - 1 refills
        if (j + STAGES - 1 < stages_total) copy_stage(j + STAGES - 1);
        cp_async_commit();
        cp_async_wait<STAGES - 1>();  // stage j has landed (for this thread's copies)
        __syncthreads();              // and for every thread's
        const uint4* a = as + (j % STAGES) * BM * kTcStageChunks;
        const uint4* b = bs + (j % STAGES) * BN * kTcStageChunks;
        MEMWALL_UNROLL
        for (int kk = 0; kk < kTcStageChunks / 2; ++kk) {
            std::uint32_t af[WM / 16][4];
            MEMWALL_UNROLL
            for (int i = 0; i < WM / 16; ++i)  // matrices: rows +0/+8 (mat & 1), chunks +0/+1 (mat >> 1)
                ldmatrix_x4(af[i], a + tc_swizzled(wm + 16 * i + mat_row + 8 * (mat & 1), 2 * kk + (mat >> 1)));
            MEMWALL_UNROLL
            for (int n = 0; n < WN / 16; ++n) {
                // B's columns are pixel rows here (.col), so plain ldmatrix gives its fragments;
                // matrices: pixels +0/+8 (mat >> 1), chunks +0/+1 (mat & 1).
                std::uint32_t bf[4];
                ldmatrix_x4(bf, b + tc_swizzled(wn + 16 * n + mat_row + 8 * (mat >> 1), 2 * kk + (mat & 1)));
                const std::uint32_t b0[2] = {bf[0], bf[1]}, b1[2] = {bf[2], bf[3]};
                MEMWALL_UNROLL
                for (int i = 0; i < WM / 16; ++i) {
                    tc_mma(acc[i][2 * n], af[i], b0, T{});
                    tc_mma(acc[i][2 * n + 1], af[i], b1, T{});
                }
            }
        }
    }

    // C fragment: this lane's filters g and g + 8 of each m16 tile, pixels 2t and 2t + 1 of each
    // n8 tile. A store instruction writes, for 4 pixels, 8 consecutive filters each.
    const int g = lane / 4, t = lane % 4;
    MEMWALL_UNROLL
    for (int i = 0; i < WM / 16; ++i) {
        MEMWALL_UNROLL
        for (int n = 0; n < WN / 8; ++n) {
            MEMWALL_UNROLL
            for (int e = 0; e < 4; ++e) {
                const int k = k0 + wm + 16 * i + g + 8 * (e >> 1);
                const long long m = m0 + wn + 8 * n + 2 * t + (e & 1);
                if (k < filters && m < pixels) out[m * filters + k] = from_float<T>(acc[i][n][e]);
            }
        }
    }
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
