// The down-projection of fused_tc and multi_adapter_tc on tensor cores: S = α/(1-p) ·
// (mask ⊙ X) · A_adapter, dropout applied to X's fragments in registers (X' is never written).
//
// A block of kDownTcWarps warps per 16·kDownTcWarps tokens, each warp 16 of them as m16n8k16
// rows, the r columns of S (RP, r rounded up to 16) as its n. 32-deep stages of X's 64 rows, A's 32 rows and the
// tokens' mask words (a 32-deep stage is one word) come by cp.async through gemm_tc.cuh's swizzled, multi-stage
// pipeline; each X fragment is ANDed with its rows' mask bits before the product. A block whose tokens span several
// adapters (multi_adapter) runs its stages once per adapter, the other adapters' rows zero-filled, into the same
// accumulators. At r = 16 a token's 2·K·r FLOPs are 2·K/16 mma per warp, so the kernel streams X at the memory's pace
// where down_project.cuh's FMA loop (a shuffle, a load and an FMA per element and lane) is bound by issue.
#pragma once

#include <cstdint>

#include "kernels/lora/cuda/down_project.cuh"
#include "kernels/lora/cuda/gemm_tc.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

// Two bf16 elements of an A fragment (columns c and c + 1 of a row) kept where the row's mask
// word has their bits set.
__device__ __forceinline__ std::uint32_t keep_pair(std::uint32_t v, unsigned word, int c) {
    return v & (((word >> c) & 1u ? 0x0000ffffu : 0u) | ((word >> (c + 1)) & 1u ? 0xffff0000u : 0u));
}

template <int RP, int STAGES>
__global__ void __launch_bounds__(kDownTcWarps* kWarpSize) down_project_tc_kernel(DownArgs<__nv_bfloat16> d) {
    constexpr int BM = kDownTcWarps * 16, BK = kTcBk, threads = kDownTcWarps * kWarpSize;
    constexpr int a_chunks = BK / 8, b_chunks = RP / 8, NI = RP / 8;
    static_assert(RP % 16 == 0 && BM * a_chunks % threads == 0, "whole mma tiles and copies");
    MEMWALL_DYNAMIC_SHARED(uint4, smem);
    uint4* const xs = smem;                                                            // STAGES tiles of BM rows
    uint4* const as = xs + STAGES * BM * a_chunks;                                     // STAGES tiles of BK rows
    unsigned* const masks = reinterpret_cast<unsigned*>(as + STAGES * BK * b_chunks);  // STAGES × BM
    int* const row_adapter = reinterpret_cast<int*>(masks + STAGES * BM);              // -1: no row

    const int tid = thread_index(), lane = tid % kWarpSize, warp = tid / kWarpSize;
    const int m0 = static_cast<int>(blockIdx.x) * BM;
    const int mat = lane / 8, mat_row = lane % 8, g = lane / 4, t = lane % 4;
    const int words = (d.k + 31) / 32;

    for (int mm = tid; mm < BM; mm += threads)
        row_adapter[mm] = m0 + mm >= d.m ? -1 : d.adapter_of ? d.adapter_of[m0 + mm] : 0;
    __syncthreads();
    int lo = row_adapter[0], hi = lo;  // row m0 exists: the block's tokens are inside X
    for (int mm = 1; mm < BM; ++mm)
        if (row_adapter[mm] >= 0) {
            lo = min(lo, row_adapter[mm]);
            hi = max(hi, row_adapter[mm]);
        }
    const int k_tiles = (d.k + BK - 1) / BK, total = (hi - lo + 1) * k_tiles;

    // Stage j: adapter lo + j / k_tiles, depth tile j % k_tiles. X's chunks of other adapters'
    // rows and past the edges land as zeros; those rows' mask words are not copied (their X is 0).
    auto load = [&](int j) {
        const int adapter = lo + j / k_tiles, d0 = (j % k_tiles) * BK;
        uint4* const xt = xs + (j % STAGES) * BM * a_chunks;
        uint4* const at = as + (j % STAGES) * BK * b_chunks;
        unsigned* const mt = masks + (j % STAGES) * BM;
        const __nv_bfloat16* const a = d.a + static_cast<long long>(adapter) * d.k * d.r;
        MEMWALL_UNROLL
        for (int i = 0; i < BM * a_chunks / threads; ++i) {
            const int x = tid + i * threads, r = x / a_chunks, c = x % a_chunks, k = d0 + 8 * c;
            const bool in = row_adapter[r] == adapter && k < d.k;
            cp_async_cg_zfill(xt + tc_swizzled<a_chunks>(r, c),
                              d.x + (in ? static_cast<long long>(m0 + r) * d.k + k : 0), in ? 16 : 0);
        }
        for (int x = tid; x < BK * b_chunks; x += threads) {
            const int r = x / b_chunks, c = x % b_chunks, k = d0 + r, n = 8 * c;
            const bool in = k < d.k && n < d.r;
            cp_async_cg_zfill(at + tc_swizzled<b_chunks>(r, c), a + (in ? static_cast<long long>(k) * d.r + n : 0),
                              in ? 16 : 0);
        }
        if (tid < BM && row_adapter[tid] == adapter)
            cp_async_ca<4>(mt + tid, d.mask + static_cast<long long>(m0 + tid) * words + d0 / 32);
    };

    MEMWALL_UNROLL
    for (int j = 0; j < STAGES - 1; ++j) {
        if (j < total) load(j);
        cp_async_commit();
    }
    float acc[NI][4];
    MEMWALL_UNROLL
    for (int n = 0; n < NI; ++n) {
        MEMWALL_UNROLL
        for (int e = 0; e < 4; ++e) acc[n][e] = 0.0f;
    }

    for (int j = 0; j < total; ++j) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (j + STAGES - 1 < total) load(j + STAGES - 1);
        cp_async_commit();
        const uint4* const xt = xs + (j % STAGES) * BM * a_chunks;
        const uint4* const at = as + (j % STAGES) * BK * b_chunks;
        const unsigned* const mt = masks + (j % STAGES) * BM;
        const unsigned word_g = mt[16 * warp + g], word_g8 = mt[16 * warp + g + 8];
        MEMWALL_UNROLL
        for (int kk = 0; kk < BK / 16; ++kk) {
            std::uint32_t af[4];
            ldmatrix_x4(af, xt + tc_swizzled<a_chunks>(16 * warp + mat_row + 8 * (mat & 1), 2 * kk + (mat >> 1)));
            // a[0], a[1]: rows g and g + 8, columns 16kk + 2t, + 1; a[2], a[3]: the same 8 further.
            const int c = 16 * kk + 2 * t;
            af[0] = keep_pair(af[0], word_g, c);
            af[1] = keep_pair(af[1], word_g8, c);
            af[2] = keep_pair(af[2], word_g, c + 8);
            af[3] = keep_pair(af[3], word_g8, c + 8);
            MEMWALL_UNROLL
            for (int n = 0; n < NI / 2; ++n) {
                std::uint32_t b[4];
                ldmatrix_x4_trans(b, at + tc_swizzled<b_chunks>(16 * kk + mat_row + 8 * (mat & 1), 2 * n + (mat >> 1)));
                const std::uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
                mma_m16n8k16_bf16(acc[2 * n], af, b0, acc[2 * n]);
                mma_m16n8k16_bf16(acc[2 * n + 1], af, b1, acc[2 * n + 1]);
            }
        }
    }
    cp_async_wait<0>();

    // S's rows g and g + 8 of the warp, columns 8n + 2t and the next, scaled, as bf16 pairs.
    MEMWALL_UNROLL
    for (int n = 0; n < NI; ++n) {
        MEMWALL_UNROLL
        for (int h = 0; h < 2; ++h) {
            const int row = m0 + 16 * warp + g + 8 * h, col = 8 * n + 2 * t;
            if (row < d.m && col < d.r)
                *reinterpret_cast<std::uint32_t*>(d.s + static_cast<long long>(row) * d.r + col) =
                    pack_bf16x2(d.scale * acc[n][2 * h], d.scale * acc[n][2 * h + 1]);
        }
    }
}

// The instantiation for rank r (a multiple of 8 up to kTcMaxRank): RP = down_tc_rank(r).
template <int STAGES>
auto down_project_tc_for(int r) -> void (*)(DownArgs<__nv_bfloat16>) {
    switch (down_tc_rank(r)) {
        case 16: return down_project_tc_kernel<16, STAGES>;
        case 32: return down_project_tc_kernel<32, STAGES>;
        default: return down_project_tc_kernel<64, STAGES>;
    }
}

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
