// flash_tc: FlashAttention-2 on bf16 tensor cores. Both products run as mma.sync m16n8k16
// (bf16 inputs, fp32 accumulators); the softmax is online, in fp32, in registers.
//
// One block per tile of BR query rows of one head (blockIdx.x the tile, blockIdx.y the head):
// the grid splits the query dimension only. Each of the BR / 16 warps owns 16 query rows: their
// Q fragments, scores, probabilities, running max and sum and output accumulators stay in its
// registers. Q, and K and V tiles of BC keys, come to shared memory by cp.async (zero-filled past
// the last row) through STAGES buffers, so the copy of a tile overlaps the products of the ones
// before it; ldmatrix reads them (V transposed, as PV's B operand). The probabilities P leave
// QK^T's accumulators in the layout of PV's A operand: two 16x8 C fragments, rounded to bf16, are
// one 16x16 A fragment (PTX ISA's m16n8k16 fragment tables), so P never goes to shared memory.
//
// Causal masks are bottom-right aligned (visible_keys): key tiles past the block's last row's
// keys are never loaded, a warp skips the tiles past its own rows' keys, and only tiles a row of
// the warp cannot see whole are masked. Blocks run from the longest query tile down. A block mask
// (flash_blocksparse; tiles nest in its blocks) drops whole key tiles: the block walks only the
// tiles it keeps, and the buffers go round by visit, not by tile index.
#pragma once

#include <cstdint>

#include "kernels/attention/cuda/common.cuh"
#include "kernels/kit/cuda/mma.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

// Shared-memory tiles hold rows of D bf16 values as D / 8 chunks of 16 bytes; chunk c of row r
// sits at c ^ (r % 8). ldmatrix reads one chunk column of 8 consecutive rows per 8x8 matrix, and
// a warp's cp.async writes whole rows: either way 8 chunks at 8 different offsets modulo 128
// bytes, which cover the 32 banks once. Unswizzled, rows 128 or 256 bytes apart would all hit the
// same 4 banks (8-way conflicts).
template <int D>
__device__ __forceinline__ int swizzled_chunk(int row, int chunk) {
    return row * (D / 8) + (chunk ^ (row & 7));
}

// Rows 0 .. ROWS - 1 of `src` (rows of D elements) into `tile` by cp.async; rows at and past
// `valid` are zero-filled and read nothing (their source address stays inside the tensor).
template <int D, int ROWS, int THREADS>
__device__ __forceinline__ void copy_tile(uint4* tile, const __nv_bfloat16* src, int valid, int tid) {
    constexpr int chunks = D / 8;
    static_assert(ROWS * chunks % THREADS == 0, "every thread copies the same number of chunks");
    MEMWALL_UNROLL
    for (int i = 0; i < ROWS * chunks / THREADS; ++i) {
        const int x = tid + i * THREADS, r = x / chunks, c = x % chunks;
        const bool in = r < valid;
        cp_async_cg_zfill(tile + swizzled_chunk<D>(r, c), src + (in ? r : 0) * D + c * 8, in ? 16 : 0);
    }
}

// The first key tile from j on, before n_tiles, that the block mask keeps for query block
// mask_row (tiles of BC keys nest in its blocks); n_tiles when none is left.
template <int BC>
__device__ __forceinline__ int next_kept_tile(const BlockMask& m, int mask_row, int j, int n_tiles) {
    if (m.kind != MaskKind::none)
        while (j < n_tiles && !block_kept(m, mask_row, j * BC / m.block)) ++j;
    return j;
}

// One block per SM for ptxas to plan on, which is what the d = 128 and Br = 128 tiles reach
// anyway: left to itself, it held the 64 x 64 tile to 128 registers, and spilled, once the key
// loop kept a block mask's fetch and visit counts.
template <int D, int BR, int BC, int STAGES>
__global__ void __launch_bounds__(BR / 16 * kWarpSize, 1)
    flash_tc_kernel(Shape s, const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o) {
    static_assert(D % 16 == 0 && BR % 16 == 0 && BC % 16 == 0 && STAGES >= 1, "whole mma tiles");
    constexpr int threads = BR / 16 * kWarpSize, chunks = D / 8;
    MEMWALL_DYNAMIC_SHARED(uint4, smem);
    uint4* const qs = smem;                       // BR rows; each warp's 16 become its output
    uint4* const ks = qs + BR * chunks;           // STAGES tiles of BC rows
    uint4* const vs = ks + STAGES * BC * chunks;  // likewise

    const int tid = thread_index(), lane = tid % kWarpSize, warp = tid / kWarpSize;
    const int tile = s.causal ? static_cast<int>(gridDim.x - 1 - blockIdx.x) : static_cast<int>(blockIdx.x);
    const int i0 = tile * BR;
    const int rows = min(BR, s.seq_q - i0);
    const std::size_t du = D, h = blockIdx.y;
    const __nv_bfloat16* kh = k + h * static_cast<std::size_t>(s.seq_k) * du;
    const __nv_bfloat16* vh = v + h * static_cast<std::size_t>(s.seq_k) * du;
    const std::size_t q_row0 = h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i0);

    // Key tiles the block's last row sees; the others are never loaded, nor those the block mask
    // drops.
    const int n_tiles = (visible_keys(s, i0 + rows - 1) + BC - 1) / BC;
    const int mask_row = i0 / s.mask.block;
    auto next_kept = [&](int j) { return next_kept_tile<BC>(s.mask, mask_row, j, n_tiles); };
    auto copy_kv = [&](int j, int stage) {
        const int j0 = j * BC, valid = min(BC, s.seq_k - j0);
        copy_tile<D, BC, threads>(ks + stage * BC * chunks, kh + static_cast<std::size_t>(j0) * du, valid, tid);
        copy_tile<D, BC, threads>(vs + stage * BC * chunks, vh + static_cast<std::size_t>(j0) * du, valid, tid);
    };
    copy_tile<D, BR, threads>(qs, q + q_row0 * du, rows, tid);
    cp_async_commit();
    int fetch = next_kept(0);  // the next tile to copy
    MEMWALL_UNROLL
    for (int stage = 0; stage < STAGES - 1; ++stage) {
        if (fetch < n_tiles) {
            copy_kv(fetch, stage);
            fetch = next_kept(fetch + 1);
        }
        cp_async_commit();  // empty groups too: wait<STAGES - 1> below counts STAGES - 1 behind
    }

    // This warp's rows: wr0 .. wr0 + 15, those past seq_q padding; keys first_seen .. last_seen
    // are what its first and last real rows see.
    const int wr0 = i0 + 16 * warp;
    const bool active = wr0 < s.seq_q;
    const int last_seen = active ? visible_keys(s, min(wr0 + 15, s.seq_q - 1)) : 0;
    const int first_seen = visible_keys(s, wr0);
    // Fragment coordinates (PTX ISA): this lane's C/D rows g and g + 8, columns 2t and 2t + 1.
    const int g = lane / 4, t = lane % 4;
    // ldmatrix .x4 row addresses: lane l gives row l % 8 of matrix l / 8.
    const int mat = lane / 8, mat_row = lane % 8;

    // Q waits for its group (the oldest) alone; each warp keeps its 16 rows as A fragments.
    cp_async_wait<STAGES - 1>();
    __syncthreads();
    std::uint32_t qf[D / 16][4];
    MEMWALL_UNROLL
    for (int kk = 0; kk < D / 16; ++kk)  // matrices: rows +0/+8 (mat & 1), columns +0/+8 (mat >> 1)
        ldmatrix_x4(qf[kk], qs + swizzled_chunk<D>(16 * warp + mat_row + 8 * (mat & 1), 2 * kk + (mat >> 1)));

    // Scores are kept unscaled; exponents are taken base 2 of scale * log2(e) * score.
    const float scale_log2 = s.scale * 1.4426950408889634f;
    float row_max[2] = {-INFINITY, -INFINITY};  // rows g and g + 8
    float row_sum[2] = {0.0f, 0.0f};            // this lane's part; the quad's sum at the end
    float acc[D / 8][4];
    MEMWALL_UNROLL
    for (int n = 0; n < D / 8; ++n) {
        MEMWALL_UNROLL
        for (int e = 0; e < 4; ++e) acc[n][e] = 0.0f;
    }

    // The block's visit-th visit is to tile j, in buffer visit % STAGES.
    for (int j = next_kept(0), visit = 0; j < n_tiles; j = next_kept(j + 1), ++visit) {
        __syncthreads();  // every warp is done with the stage that visit + STAGES - 1 refills
        if (fetch < n_tiles) {
            copy_kv(fetch, (visit + STAGES - 1) % STAGES);
            fetch = next_kept(fetch + 1);
        }
        cp_async_commit();
        cp_async_wait<STAGES - 1>();  // tile j has landed (for this thread's copies)
        __syncthreads();              // and for every thread's
        const int j0 = j * BC;
        if (j0 >= last_seen) continue;  // warp-uniform: no row of this warp sees the tile
        const uint4* kt = ks + (visit % STAGES) * BC * chunks;
        const uint4* vt = vs + (visit % STAGES) * BC * chunks;

        // S = Q K^T: K's rows are B's columns (.col), so plain ldmatrix gives B fragments;
        // matrices: keys +0/+8 (mat >> 1), columns of d +0/+8 (mat & 1).
        float sc[BC / 8][4];
        MEMWALL_UNROLL
        for (int n = 0; n < BC / 8; ++n) {
            MEMWALL_UNROLL
            for (int e = 0; e < 4; ++e) sc[n][e] = 0.0f;
        }
        MEMWALL_UNROLL
        for (int kk = 0; kk < D / 16; ++kk) {
            MEMWALL_UNROLL
            for (int n = 0; n < BC / 16; ++n) {
                std::uint32_t b[4];
                ldmatrix_x4(b, kt + swizzled_chunk<D>(16 * n + mat_row + 8 * (mat >> 1), 2 * kk + (mat & 1)));
                const std::uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
                mma_m16n8k16_bf16(sc[2 * n], qf[kk], b0, sc[2 * n]);
                mma_m16n8k16_bf16(sc[2 * n + 1], qf[kk], b1, sc[2 * n + 1]);
            }
        }

        // Keys a row does not see (causal, or past seq_k) score -inf; only where some row of the
        // warp does not see the whole tile.
        if (j0 + BC > first_seen) {
            MEMWALL_UNROLL
            for (int n = 0; n < BC / 8; ++n) {
                MEMWALL_UNROLL
                for (int e = 0; e < 4; ++e)
                    if (j0 + 8 * n + 2 * t + (e & 1) >= visible_keys(s, wr0 + g + 8 * (e >> 1))) sc[n][e] = -INFINITY;
            }
        }

        // Online softmax per row: the quad (t = 0..3) holds a row's columns.
        float alpha[2];
        MEMWALL_UNROLL
        for (int r = 0; r < 2; ++r) {
            float m = row_max[r];
            MEMWALL_UNROLL
            for (int n = 0; n < BC / 8; ++n) m = fmaxf(m, fmaxf(sc[n][2 * r], sc[n][2 * r + 1]));
            m = fmaxf(m, __shfl_xor_sync(kFullMask, m, 1));
            m = fmaxf(m, __shfl_xor_sync(kFullMask, m, 2));
            // A row that has seen no key yet keeps max -inf: its probabilities and alpha are 0.
            const float base = m == -INFINITY ? 0.0f : m * scale_log2;
            alpha[r] = exp2f(row_max[r] * scale_log2 - base);
            row_max[r] = m;
            float sum = 0.0f;
            MEMWALL_UNROLL
            for (int n = 0; n < BC / 8; ++n) {
                MEMWALL_UNROLL
                for (int e = 2 * r; e < 2 * r + 2; ++e) {
                    sc[n][e] = exp2f(fmaf(sc[n][e], scale_log2, -base));
                    sum += sc[n][e];
                }
            }
            row_sum[r] = row_sum[r] * alpha[r] + sum;
        }
        MEMWALL_UNROLL
        for (int n = 0; n < D / 8; ++n) {
            MEMWALL_UNROLL
            for (int e = 0; e < 4; ++e) acc[n][e] *= alpha[e >> 1];
        }

        // O += P V, 16 keys per step: C fragments 2kk and 2kk + 1 of S are P's A fragment.
        // Rounding P to bf16 errs as much as rounding O does: emulated, the relative L2 error is
        // 0.0020-0.0024 on the default problems, under the bf16 bound of 0.0040.
        // V's rows are B's rows (.row would be needed), so ldmatrix .trans gives the .col
        // fragments; matrices: keys +0/+8 (mat & 1), columns of d +0/+8 (mat >> 1).
        MEMWALL_UNROLL
        for (int kk = 0; kk < BC / 16; ++kk) {
            const std::uint32_t a[4] = {
                pack_bf16x2(sc[2 * kk][0], sc[2 * kk][1]), pack_bf16x2(sc[2 * kk][2], sc[2 * kk][3]),
                pack_bf16x2(sc[2 * kk + 1][0], sc[2 * kk + 1][1]), pack_bf16x2(sc[2 * kk + 1][2], sc[2 * kk + 1][3])};
            MEMWALL_UNROLL
            for (int n = 0; n < D / 16; ++n) {
                std::uint32_t b[4];
                ldmatrix_x4_trans(b, vt + swizzled_chunk<D>(16 * kk + mat_row + 8 * (mat & 1), 2 * n + (mat >> 1)));
                const std::uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
                mma_m16n8k16_bf16(acc[2 * n], a, b0, acc[2 * n]);
                mma_m16n8k16_bf16(acc[2 * n + 1], a, b1, acc[2 * n + 1]);
            }
        }
    }
    if (!active) return;  // warp-uniform; no barrier follows

    // O / sum, as bf16, into this warp's own Q rows (no other warp reads them), stmatrix taking
    // C fragments as they are; then 16-byte rows out to global memory, coalesced.
    float inv[2];
    MEMWALL_UNROLL
    for (int r = 0; r < 2; ++r) {
        float l = row_sum[r];
        l += __shfl_xor_sync(kFullMask, l, 1);
        l += __shfl_xor_sync(kFullMask, l, 2);
        inv[r] = l > 0.0f ? 1.0f / l : 0.0f;  // a row without visible keys is zeros
    }
    MEMWALL_UNROLL
    for (int n = 0; n < D / 16; ++n) {
        const std::uint32_t x[4] = {pack_bf16x2(acc[2 * n][0] * inv[0], acc[2 * n][1] * inv[0]),
                                    pack_bf16x2(acc[2 * n][2] * inv[1], acc[2 * n][3] * inv[1]),
                                    pack_bf16x2(acc[2 * n + 1][0] * inv[0], acc[2 * n + 1][1] * inv[0]),
                                    pack_bf16x2(acc[2 * n + 1][2] * inv[1], acc[2 * n + 1][3] * inv[1])};
        stmatrix_x4(qs + swizzled_chunk<D>(16 * warp + mat_row + 8 * (mat & 1), 2 * n + (mat >> 1)), x);
    }
    __syncwarp();
    uint4* const out = reinterpret_cast<uint4*>(o + (q_row0 + static_cast<std::size_t>(16 * warp)) * du);
    MEMWALL_UNROLL
    for (int i = 0; i < 16 * chunks / kWarpSize; ++i) {
        const int x = lane + i * kWarpSize, r = x / chunks, c = x % chunks;
        if (wr0 + r < s.seq_q) out[r * chunks + c] = qs[swizzled_chunk<D>(16 * warp + r, c)];
    }
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
