// The tensor-core GEMM of the bf16 *_tc variants: C = A·B with the LoRA epilogue of gemm.cuh
// (C += S·B_a on the rows of adapter a, before the tile's single store), bf16 in and out, float
// accumulators in WMMA fragments (16×16×16 bf16 MMA, sm_80 and later). GPU-only: cuda-emu has no
// tensor cores. A block of 4 warps computes a 64×64 tile of C, each warp a 32×32 quarter (2×2
// fragments), over 32-deep stages staged in shared memory; the epilogue's stages take S's rows
// and B_a's, r deep. Plain on purpose (no cp.async, one stage in flight): what it measures is the
// fusion on tensor cores, not how close a hand-tuned GEMM comes to cuBLAS.
#pragma once

#include <mma.h>

#include "kernels/lora/cuda/gemm.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

inline constexpr int wmma_bm = 64, wmma_bn = 64, wmma_bk = 32, wmma_threads = 128;
// Rows of the staged tiles padded by 8 elements (16 bytes): WMMA's leading dimensions must be
// multiples of 8 bf16, and the padding spreads a column's elements over the banks.
inline constexpr int wmma_lda = wmma_bk + 8, wmma_ldb = wmma_bn + 8;

// The shared memory of gemm_wmma_kernel: A's and B's stages, C's tile as floats for the store,
// and the tile rows' adapters.
constexpr std::size_t gemm_wmma_shared_bytes() {
    return sizeof(__nv_bfloat16) * (wmma_bm * wmma_lda + wmma_bk * wmma_ldb) + sizeof(float) * wmma_bm * wmma_bn +
           sizeof(int) * wmma_bm;
}

// blockIdx.x: tiles of 64 columns, blockIdx.y: tiles of 64 rows; 128 threads.
__global__ void __launch_bounds__(wmma_threads) gemm_wmma_kernel(GemmArgs<__nv_bfloat16> p) {
    namespace wmma = nvcuda::wmma;
    using bf16 = __nv_bfloat16;
    extern __shared__ __align__(32) unsigned char shared_bytes[];
    bf16* as = reinterpret_cast<bf16*>(shared_bytes);   // [wmma_bm][wmma_lda]
    bf16* bs = as + wmma_bm * wmma_lda;                   // [wmma_bk][wmma_ldb]
    float* cs = reinterpret_cast<float*>(bs + wmma_bk * wmma_ldb);  // [wmma_bm][wmma_bn]
    int* row_adapter = reinterpret_cast<int*>(cs + wmma_bm * wmma_bn);
    const int tid = static_cast<int>(threadIdx.x), warp = tid / warp_size;
    const int wm = (warp / 2) * 32, wn = (warp % 2) * 32;  // the warp's quarter of the tile
    const int m0 = static_cast<int>(blockIdx.y) * wmma_bm, n0 = static_cast<int>(blockIdx.x) * wmma_bn;
    const bf16 zero = __float2bfloat16_rn(0.0f);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (auto& row : acc)
        for (auto& f : row) wmma::fill_fragment(f, 0.0f);

    // One stage: A's 64×depth and B's depth×64 tiles (a_at(mm, kk), b_at(kk, nn), 0 outside the
    // matrices and past `depth`), then their products into the accumulators.
    auto stage = [&](auto a_at, auto b_at) {
        __syncthreads();  // the previous stage's tiles are done with
        for (int e = tid; e < wmma_bm * wmma_bk; e += wmma_threads) {
            const int mm = e / wmma_bk, kk = e % wmma_bk;
            as[mm * wmma_lda + kk] = a_at(mm, kk);
        }
        for (int e = tid; e < wmma_bk * wmma_bn; e += wmma_threads) {
            const int kk = e / wmma_bn, nn = e % wmma_bn;
            bs[kk * wmma_ldb + nn] = b_at(kk, nn);
        }
        __syncthreads();
        for (int kk = 0; kk < wmma_bk; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> af[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> bf[2];
            for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(af[i], as + (wm + 16 * i) * wmma_lda + kk, wmma_lda);
            for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(bf[j], bs + kk * wmma_ldb + wn + 16 * j, wmma_ldb);
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], af[i], bf[j], acc[i][j]);
        }
    };

    for (int d0 = 0; d0 < p.depth; d0 += wmma_bk)
        stage(
            [&](int mm, int kk) {
                const int m = m0 + mm, d = d0 + kk;
                return m < p.m && d < p.depth ? p.a[static_cast<long long>(m) * p.depth + d] : zero;
            },
            [&](int kk, int nn) {
                const int d = d0 + kk, n = n0 + nn;
                return d < p.depth && n < p.n ? p.b[static_cast<long long>(d) * p.n + n] : zero;
            });

    if (p.s) {
        for (int mm = tid; mm < wmma_bm; mm += wmma_threads)
            row_adapter[mm] = m0 + mm >= p.m ? -1 : p.adapter_of ? p.adapter_of[m0 + mm] : 0;
        __syncthreads();
        int lo = row_adapter[0], hi = lo;  // row m0 exists: the block's tile is inside C
        for (int mm = 1; mm < wmma_bm; ++mm)
            if (row_adapter[mm] >= 0) {
                lo = min(lo, row_adapter[mm]);
                hi = max(hi, row_adapter[mm]);
            }
        for (int adapter = lo; adapter <= hi; ++adapter) {
            const bf16* lora_b = p.lora_b + static_cast<long long>(adapter) * p.r * p.n;
            for (int j0 = 0; j0 < p.r; j0 += wmma_bk)
                stage(
                    [&](int mm, int kk) {
                        const int j = j0 + kk;
                        return j < p.r && row_adapter[mm] == adapter ? p.s[static_cast<long long>(m0 + mm) * p.r + j]
                                                                     : zero;
                    },
                    [&](int kk, int nn) {
                        const int j = j0 + kk, n = n0 + nn;
                        return j < p.r && n < p.n ? lora_b[static_cast<long long>(j) * p.n + n] : zero;
                    });
        }
    }

    // Through shared memory: fragments have no element order to store by, and C's edges need
    // bounds.
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(cs + (wm + 16 * i) * wmma_bn + wn + 16 * j, acc[i][j], wmma_bn, wmma::mem_row_major);
    __syncthreads();
    for (int e = tid; e < wmma_bm * wmma_bn; e += wmma_threads) {
        const int mm = e / wmma_bn, nn = e % wmma_bn, m = m0 + mm, n = n0 + nn;
        if (m < p.m && n < p.n) p.c[static_cast<long long>(m) * p.n + n] = __float2bfloat16_rn(cs[e]);
    }
}

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
