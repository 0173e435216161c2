// memwall's tiled GEMM, C = A·B (row-major, contiguous: A m×depth, B depth×n, C m×n; elements of
// T, float or __nv_bfloat16, with float accumulators: bf16 through FMA, not tensor cores), with an
// optional LoRA epilogue: C += S·B_a on the rows of adapter a, added to the accumulators before
// the tile's single store (LoRAFusion's fusion: no second pass over Y). base and every GEMM of
// unfused run it without the epilogue; fused and multi_adapter with it.
//
// The epilogue is more stages of the same loop: A's tile from S (r deep, the rows of adapter a,
// 0 on the others), B's from B_a. A tile loops over the adapters its rows span, so a tile that
// straddles two adapters' tokens (multi_adapter) runs both, each row taking only its own.
#pragma once

#include "kernels/lora/cuda/common.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

template <class T>
struct GemmArgs {
    int m, n, depth;
    const T* a;  // m×depth
    const T* b;  // depth×n
    T* c;        // m×n
    // Epilogue, when s is not null: S m×r; lora_b every adapter's B (r×n), stacked; adapter_of
    // the rows' adapters (null: every row uses the first B).
    const T* s;
    const T* lora_b;
    const int* adapter_of;
    int r;
};

// A GEMM without the epilogue (launchers' shorthand).
template <class T>
GemmArgs<T> plain_gemm(int m, int n, int depth, const T* a, const T* b, T* c) {
    return {m, n, depth, a, b, c, nullptr, nullptr, nullptr, 0};
}

// A block's view of its tiles: shared memory (gemm_shared_bytes) and its thread's place.
struct GemmTile {
    float* as;  // [bk][bm + 1]: A's tile, transposed
    float* bs;  // [bk][bn]
    int bm, bn, bk, tid, threads, tx, ty, rows, cols;
};

// One stage: A's bm×bk and B's bk×bn tiles staged (a_at(mm, kk), b_at(kk, nn) give an element,
// 0 outside the matrices), then multiplied into the register tile. Thread (ty, tx) owns rows
// ty + i*rows and columns tx + jj*cols: consecutive threads take consecutive columns, so B's
// loads and C's stores coalesce and the shared reads are conflict-free.
template <int TM, int TN, class TileA, class TileB>
__device__ __forceinline__ void gemm_stage(const GemmTile& g, TileA a_at, TileB b_at, float (&acc)[TM][TN]) {
    const int lda = g.bm + 1;
    __syncthreads();  // the previous stage's tiles are done with
    for (int e = g.tid; e < g.bm * g.bk; e += g.threads) {
        const int mm = e / g.bk, kk = e - mm * g.bk;
        g.as[kk * lda + mm] = a_at(mm, kk);
    }
    for (int e = g.tid; e < g.bk * g.bn; e += g.threads) {
        const int kk = e / g.bn, nn = e - kk * g.bn;
        g.bs[kk * g.bn + nn] = b_at(kk, nn);
    }
    __syncthreads();
    for (int kk = 0; kk < g.bk; ++kk) {
        float av[TM], bv[TN];
        for (int i = 0; i < TM; ++i) av[i] = g.as[kk * lda + g.ty + i * g.rows];
        for (int jj = 0; jj < TN; ++jj) bv[jj] = g.bs[kk * g.bn + g.tx + jj * g.cols];
        for (int i = 0; i < TM; ++i)
            for (int jj = 0; jj < TN; ++jj) acc[i][jj] = fmaf(av[i], bv[jj], acc[i][jj]);
    }
}

// blockIdx.x: tiles of BN columns, blockIdx.y: tiles of BM rows; (BM/TM)×(BN/TN) threads. The launch
// bounds are kit::register_tiled_max_threads(TM, TN), written out for nvcc.
template <class T, int TM, int TN>
__global__ void __launch_bounds__(TM* TN >= 64    ? 256
                                  : TM * TN >= 32 ? 512
                                                  : 1024) gemm_kernel(GemmArgs<T> p, Tuning t) {
    MEMWALL_DYNAMIC_SHARED(float, shared);
    GemmTile g;
    g.bm = t.bm;
    g.bn = t.bn;
    g.bk = t.bk;
    g.as = shared;
    g.bs = shared + g.bk * (g.bm + 1);
    int* row_adapter = reinterpret_cast<int*>(g.bs + g.bk * g.bn);  // [bm], past the last row: -1
    g.tid = thread_index();
    g.threads = block_threads();
    g.cols = g.bn / TN;
    g.rows = g.bm / TM;
    g.tx = g.tid % g.cols;
    g.ty = g.tid / g.cols;
    const int m0 = static_cast<int>(blockIdx.y) * g.bm, n0 = static_cast<int>(blockIdx.x) * g.bn;

    float acc[TM][TN];
    for (int i = 0; i < TM; ++i)
        for (int jj = 0; jj < TN; ++jj) acc[i][jj] = 0.0f;

    for (int d0 = 0; d0 < p.depth; d0 += g.bk) {
        gemm_stage<TM, TN>(
            g,
            [&](int mm, int kk) {
                const int m = m0 + mm, d = d0 + kk;
                return m < p.m && d < p.depth ? to_float(p.a[static_cast<long long>(m) * p.depth + d]) : 0.0f;
            },
            [&](int kk, int nn) {
                const int d = d0 + kk, n = n0 + nn;
                return d < p.depth && n < p.n ? to_float(p.b[static_cast<long long>(d) * p.n + n]) : 0.0f;
            },
            acc);
    }

    if (p.s) {
        for (int mm = g.tid; mm < g.bm; mm += g.threads)
            row_adapter[mm] = m0 + mm >= p.m ? -1 : p.adapter_of ? p.adapter_of[m0 + mm] : 0;
        __syncthreads();
        int lo = row_adapter[0], hi = lo;  // row m0 exists: the block's tile is inside C
        for (int mm = 1; mm < g.bm; ++mm)
            if (row_adapter[mm] >= 0) {
                lo = min(lo, row_adapter[mm]);
                hi = max(hi, row_adapter[mm]);
            }
        for (int adapter = lo; adapter <= hi; ++adapter) {
            const T* lora_b = p.lora_b + static_cast<long long>(adapter) * p.r * p.n;
            for (int j0 = 0; j0 < p.r; j0 += g.bk) {
                gemm_stage<TM, TN>(
                    g,
                    [&](int mm, int kk) {
                        const int j = j0 + kk;
                        return j < p.r && row_adapter[mm] == adapter
                                   ? to_float(p.s[static_cast<long long>(m0 + mm) * p.r + j])
                                   : 0.0f;
                    },
                    [&](int kk, int nn) {
                        const int j = j0 + kk, n = n0 + nn;
                        return j < p.r && n < p.n ? to_float(lora_b[static_cast<long long>(j) * p.n + n]) : 0.0f;
                    },
                    acc);
            }
        }
    }

    for (int i = 0; i < TM; ++i) {
        const int m = m0 + g.ty + i * g.rows;
        if (m >= p.m) continue;
        for (int jj = 0; jj < TN; ++jj) {
            const int n = n0 + g.tx + jj * g.cols;
            if (n < p.n) p.c[static_cast<long long>(m) * p.n + n] = from_float<T>(acc[i][jj]);
        }
    }
}

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
