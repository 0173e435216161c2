// implicit_gemm: the convolution as the GEMM out[k][j] = sum over g of A[k][g] * B[g][j], with
// M = K filters, N = batch*P*Q output pixels j = (n, p, q), depth C*R*S taps g = (c, r, s).
// A is the KCRS filter as it lies (row k, C*R*S contiguous); B, im2col's matrix, is never
// materialised: each stage gathers its BK x BN tile from the input with index math. A block
// computes a BM x BN tile of the output; each thread a TM x TN register tile of it.
#pragma once

#include "kernels/conv/cuda/common.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// blockIdx.x: tiles of BN output pixels, blockIdx.y: tiles of BM filters; (BM/TM) x (BN/TN)
// threads. Thread (ty, tx) owns filters ty + i*(BM/TM) and pixels tx + jj*(BN/TN): consecutive
// threads take consecutive pixels, so the output stores and the input tile's reads coalesce (along
// q) and its shared-memory reads are conflict-free. Shared memory: implicit_gemm_shared_bytes. The
// launch bounds are kit::register_tiled_max_threads(TM, TN), written out for nvcc.
template <int TM, int TN>
__global__ void __launch_bounds__(TM* TN >= 64    ? 256
                                  : TM * TN >= 32 ? 512
                                                  : 1024)
    implicit_gemm_kernel(Shape s, Tuning t, const float* in, const float* filter, float* out) {
    MEMWALL_DYNAMIC_SHARED(unsigned char, shared);
    const int bm = t.bm, bn = t.bn, bk = t.bk, lda = bm + 1;
    long long* col_image = reinterpret_cast<long long*>(shared);  // [bn] input offset of image n; -1 past N*P*Q
    int* col_y = reinterpret_cast<int*>(col_image + bn);          // [bn] p*stride - pad
    int* col_x = col_y + bn;                                      // [bn] q*stride - pad
    float* as = reinterpret_cast<float*>(col_x + bn);             // [bk][bm + 1]: A^T tile
    float* bs = as + bk * lda;                                    // [bk][bn]

    const int tid = thread_index(), threads = block_threads();
    const int cols = bn / TN, rows = bm / TM;
    const int tx = tid % cols, ty = tid / cols;
    const int pq = s.p * s.q, rs = s.r * s.s, depth = s.c * rs, plane = s.h * s.w;
    const long long pixels = static_cast<long long>(s.n) * pq;
    const int m0 = static_cast<int>(blockIdx.y) * bm;
    const long long j0 = static_cast<long long>(blockIdx.x) * bn;

    // Where each pixel of the tile reads: computed once, not per tap.
    for (int jj = tid; jj < bn; jj += threads) {
        const long long j = j0 + jj;
        const long long n = j / pq;
        const int e = static_cast<int>(j - n * pq), p = e / s.q, q = e - p * s.q;
        col_image[jj] = j < pixels ? n * s.c * plane : -1;
        col_y[jj] = p * s.stride - s.pad;
        col_x[jj] = q * s.stride - s.pad;
    }

    float acc[TM][TN];
    for (int i = 0; i < TM; ++i)
        for (int jj = 0; jj < TN; ++jj) acc[i][jj] = 0.0f;

    for (int g0 = 0; g0 < depth; g0 += bk) {
        __syncthreads();  // the previous stage's tiles (and the pixel table) are done with / written
        // A: consecutive threads read consecutive taps of a filter row; stored transposed.
        for (int e = tid; e < bm * bk; e += threads) {
            const int mm = e / bk, kk = e - mm * bk, m = m0 + mm, g = g0 + kk;
            as[kk * lda + mm] = m < s.k && g < depth ? filter[static_cast<long long>(m) * depth + g] : 0.0f;
        }
        // B: tap g of pixel j, 0 in the padding and past the matrix (those are never loaded).
        for (int e = tid; e < bk * bn; e += threads) {
            const int kk = e / bn, jj = e - kk * bn, g = g0 + kk;
            float v = 0.0f;
            const long long image = col_image[jj];
            if (g < depth && image >= 0) {
                const int c = g / rs, tap = g - c * rs, r = tap / s.s, x = col_x[jj] + tap - r * s.s;
                const int y = col_y[jj] + r;
                if (y >= 0 && y < s.h && x >= 0 && x < s.w)
                    v = in[image + static_cast<long long>(c) * plane + y * s.w + x];
            }
            bs[kk * bn + jj] = v;
        }
        __syncthreads();
        for (int kk = 0; kk < bk; ++kk) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i) a[i] = as[kk * lda + ty + i * rows];
            for (int jj = 0; jj < TN; ++jj) b[jj] = bs[kk * bn + tx + jj * cols];
            for (int i = 0; i < TM; ++i)
                for (int jj = 0; jj < TN; ++jj) acc[i][jj] = fmaf(a[i], b[jj], acc[i][jj]);
        }
    }

    for (int i = 0; i < TM; ++i) {
        const int m = m0 + ty + i * rows;
        if (m >= s.k) continue;
        for (int jj = 0; jj < TN; ++jj) {
            const long long j = j0 + tx + jj * cols;
            if (j >= pixels) continue;
            const long long n = j / pq;
            out[output_plane(s, n, m) + (j - n * pq)] = acc[i][jj];
        }
    }
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
