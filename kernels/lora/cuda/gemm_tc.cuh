// The tensor-core GEMM of the bf16 *_tc variants: C = A·B (row-major, bf16 in and out, fp32
// accumulators) with gemm.cuh's LoRA term, C += S·B_a on the rows of adapter a, added to the same
// accumulators before the tile's single store (LoRAFusion's fusion: no second pass over Y).
//
// One block per BM×BN tile of C (blockIdx.x the column tile, blockIdx.y the row tile); WARPS
// warps in 2 rows of WARPS/2, each computing a (BM/2)×(BN·2/WARPS) tile as m16n8k16 mma.sync
// fragments. Stages of A's BM×32 and B's 32×BN tiles come by cp.async (zero-filled past the
// matrices' edges) through STAGES shared-memory buffers, so the copy of a stage overlaps the
// products of the ones before it; ldmatrix reads A's fragments and, transposed, B's (B is K×N
// row-major, mma's .col operand). The LoRA term is more stages of the same loop: A's tile from
// S's rows of adapter a (zero on the tile's other rows), B's from B_a, r deep; a tile loops over
// the adapters its rows span (one, unless multi_adapter's tile straddles two adapters' tokens).
// The tile of C goes through shared memory (stmatrix) for 16-byte coalesced stores.
//
// Rows of A, B, S and B_a are whole 16-byte chunks (K, N and r multiples of 8,
// validate_tensor_core); M is any.
#pragma once

#include <cstdint>

#include "kernels/kit/cuda/mma.cuh"
#include "kernels/lora/cuda/gemm.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

// Shared-memory tiles hold rows of CHUNKS 16-byte chunks, permuted within each 128 bytes so that
// the 8 rows ldmatrix or stmatrix reads or writes at one chunk column fall in 8 different 16-byte
// slots of the 32 banks: chunk c of row r sits at c ^ (r % 8) when a row spans 128 bytes or more
// (the W, B_a and C tiles); a shorter row shares 128 bytes with 8 / CHUNKS - 1 others, and chunk c
// sits at c ^ ((r / (8 / CHUNKS)) % CHUNKS) (X's and S's 32 columns, A_a's 16 or 32). Unswizzled,
// rows 64 bytes apart would hit the same banks every other row (2-way conflicts), rows 256 bytes
// apart all 8 (8-way).
template <int CHUNKS>
__device__ __forceinline__ int tc_swizzled(int row, int chunk) {
    static_assert(CHUNKS == 2 || CHUNKS == 4 || CHUNKS % 8 == 0, "rows of 32 or 64 bytes or of whole 128 bytes");
    if constexpr (CHUNKS >= 8)
        return row * CHUNKS + (chunk ^ (row & 7));
    else
        return row * CHUNKS + (chunk ^ ((row / (8 / CHUNKS)) & (CHUNKS - 1)));
}

template <int BM, int BN, int WARPS, int STAGES>
__global__ void __launch_bounds__(WARPS* kWarpSize) gemm_tc_kernel(GemmArgs<__nv_bfloat16> p) {
    constexpr int BK = kTcBk, WN = WARPS / 2, threads = WARPS * kWarpSize;
    constexpr int TM = BM / 2, TN = BN / WN, MI = TM / 16, NI = TN / 8;
    constexpr int a_chunks = BK / 8, b_chunks = BN / 8;
    constexpr int stage_chunks = STAGES * (BM * a_chunks + BK * b_chunks), c_chunks = BM * b_chunks;
    static_assert(WARPS % 2 == 0 && TM % 16 == 0 && TN % 16 == 0 && STAGES >= 2, "whole mma tiles");
    static_assert(BM * a_chunks % threads == 0 && BK * b_chunks % threads == 0,
                  "every thread copies the same number of chunks");
    MEMWALL_DYNAMIC_SHARED(uint4, smem);
    uint4* const as = smem;                         // STAGES tiles of BM rows
    uint4* const bs = as + STAGES * BM * a_chunks;  // STAGES tiles of BK rows
    // The tile rows' adapters, past the stages and the tile of C that reuses them (-1: no row).
    int* const row_adapter = reinterpret_cast<int*>(smem + (stage_chunks > c_chunks ? stage_chunks : c_chunks));

    const int tid = thread_index(), lane = tid % kWarpSize, warp = tid / kWarpSize;
    const int wm = warp / WN, wn = warp % WN;
    const int m0 = static_cast<int>(blockIdx.y) * BM, n0 = static_cast<int>(blockIdx.x) * BN;
    // ldmatrix/stmatrix .x4 row addresses: lane l gives row l % 8 of matrix l / 8.
    const int mat = lane / 8, mat_row = lane % 8;

    // The adapters the tile's rows span: lo .. hi (none without the LoRA term).
    int lo = 0, hi = -1;
    if (p.s) {
        for (int mm = tid; mm < BM; mm += threads)
            row_adapter[mm] = m0 + mm >= p.m ? -1 : p.adapter_of ? p.adapter_of[m0 + mm] : 0;
        __syncthreads();
        lo = hi = row_adapter[0];  // row m0 exists: the block's tile is inside C
        for (int mm = 1; mm < BM; ++mm)
            if (row_adapter[mm] >= 0) {
                lo = min(lo, row_adapter[mm]);
                hi = max(hi, row_adapter[mm]);
            }
    }
    const int main_tiles = (p.depth + BK - 1) / BK, lora_tiles = (p.r + BK - 1) / BK;
    const int total = main_tiles + (hi - lo + 1) * lora_tiles;

    // Stage j: A·B's depth tile j, then per adapter lo .. hi S's and B_a's depth tiles. A chunk
    // outside the matrices (or, of S, on another adapter's row) reads nothing and lands as zeros;
    // its source address stays inside the matrix.
    auto load = [&](int j) {
        uint4* const at = as + (j % STAGES) * BM * a_chunks;
        uint4* const bt = bs + (j % STAGES) * BK * b_chunks;
        const bool lora = j >= main_tiles;
        const int l = j - main_tiles, adapter = lora ? lo + l / lora_tiles : 0;
        const int d0 = lora ? (l % lora_tiles) * BK : j * BK, depth = lora ? p.r : p.depth;
        const __nv_bfloat16* const a = lora ? p.s : p.a;
        const __nv_bfloat16* const b = lora ? p.lora_b + static_cast<long long>(adapter) * p.r * p.n : p.b;
        MEMWALL_UNROLL
        for (int i = 0; i < BM * a_chunks / threads; ++i) {
            const int x = tid + i * threads, r = x / a_chunks, c = x % a_chunks, m = m0 + r, d = d0 + 8 * c;
            const bool in = m < p.m && d < depth && (!lora || row_adapter[r] == adapter);
            cp_async_cg_zfill(at + tc_swizzled<a_chunks>(r, c), a + (in ? static_cast<long long>(m) * depth + d : 0),
                              in ? 16 : 0);
        }
        MEMWALL_UNROLL
        for (int i = 0; i < BK * b_chunks / threads; ++i) {
            const int x = tid + i * threads, r = x / b_chunks, c = x % b_chunks, d = d0 + r, n = n0 + 8 * c;
            const bool in = d < depth && n < p.n;
            cp_async_cg_zfill(bt + tc_swizzled<b_chunks>(r, c), b + (in ? static_cast<long long>(d) * p.n + n : 0),
                              in ? 16 : 0);
        }
    };

    MEMWALL_UNROLL
    for (int j = 0; j < STAGES - 1; ++j) {
        if (j < total) load(j);
        cp_async_commit();  // empty groups too: the wait below counts STAGES - 2 behind
    }

    float acc[MI][NI][4];
    MEMWALL_UNROLL
    for (int i = 0; i < MI; ++i) {
        MEMWALL_UNROLL
        for (int n = 0; n < NI; ++n) {
            MEMWALL_UNROLL
            for (int e = 0; e < 4; ++e) acc[i][n][e] = 0.0f;
        }
    }

    for (int j = 0; j < total; ++j) {
        cp_async_wait<STAGES - 2>();                       // stage j has landed (this thread's copies)
        __syncthreads();                                   // every thread's; and every warp is done with stage j - 1
        if (j + STAGES - 1 < total) load(j + STAGES - 1);  // into stage j - 1's buffers
        cp_async_commit();
        const uint4* const at = as + (j % STAGES) * BM * a_chunks;
        const uint4* const bt = bs + (j % STAGES) * BK * b_chunks;
        MEMWALL_UNROLL
        for (int kk = 0; kk < BK / 16; ++kk) {
            // A's matrices: rows +0/+8 (mat & 1), columns +0/+8 (mat >> 1); B's, transposed:
            // depth +0/+8 (mat & 1), columns +0/+8 (mat >> 1), the second pair the next 8 columns.
            std::uint32_t af[MI][4], bf[NI][2];
            MEMWALL_UNROLL
            for (int i = 0; i < MI; ++i)
                ldmatrix_x4(
                    af[i], at + tc_swizzled<a_chunks>(wm * TM + 16 * i + mat_row + 8 * (mat & 1), 2 * kk + (mat >> 1)));
            MEMWALL_UNROLL
            for (int n = 0; n < NI / 2; ++n) {
                std::uint32_t b[4];
                ldmatrix_x4_trans(
                    b, bt + tc_swizzled<b_chunks>(16 * kk + mat_row + 8 * (mat & 1), wn * TN / 8 + 2 * n + (mat >> 1)));
                bf[2 * n][0] = b[0];
                bf[2 * n][1] = b[1];
                bf[2 * n + 1][0] = b[2];
                bf[2 * n + 1][1] = b[3];
            }
            MEMWALL_UNROLL
            for (int i = 0; i < MI; ++i) {
                MEMWALL_UNROLL
                for (int n = 0; n < NI; ++n) mma_m16n8k16_bf16(acc[i][n], af[i], bf[n], acc[i][n]);
            }
        }
    }

    // The tile of C as bf16 into the stages' memory (stmatrix takes C fragments as they are:
    // rows g and g + 8 of two 8-column blocks per call), then 16-byte rows out, coalesced.
    cp_async_wait<0>();
    __syncthreads();  // every warp is done with the stages
    uint4* const cs = smem;
    MEMWALL_UNROLL
    for (int i = 0; i < MI; ++i) {
        MEMWALL_UNROLL
        for (int n = 0; n < NI / 2; ++n) {
            const std::uint32_t x[4] = {pack_bf16x2(acc[i][2 * n][0], acc[i][2 * n][1]),
                                        pack_bf16x2(acc[i][2 * n][2], acc[i][2 * n][3]),
                                        pack_bf16x2(acc[i][2 * n + 1][0], acc[i][2 * n + 1][1]),
                                        pack_bf16x2(acc[i][2 * n + 1][2], acc[i][2 * n + 1][3])};
            stmatrix_x4(cs + tc_swizzled<b_chunks>(wm * TM + 16 * i + mat_row + 8 * (mat & 1),
                                                   wn * TN / 8 + 2 * n + (mat >> 1)),
                        x);
        }
    }
    __syncthreads();
    for (int x = tid; x < c_chunks; x += threads) {
        const int r = x / b_chunks, c = x % b_chunks, m = m0 + r, n = n0 + 8 * c;
        if (m < p.m && n < p.n)
            *reinterpret_cast<uint4*>(p.c + static_cast<long long>(m) * p.n + n) = cs[tc_swizzled<b_chunks>(r, c)];
    }
}

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
