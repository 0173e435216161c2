// im2col: the column matrix of each image, col[n][g][j] for tap g = (c, r, s) and output pixel
// j = (p, q): in[n][c][p*stride + r - pad][q*stride + s - pad], 0 in the padding. Image n's
// output is then the GEMM filter (K x C*R*S) times col[n] (C*R*S x P*Q), as im2col_gemm.cu does
// with cuBLAS.
#pragma once

#include "kernels/conv/cuda/common.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// One element per thread per step of a grid-stride loop, pixels fastest: stores coalesce and,
// at stride 1, so do the loads. Padding is written as 0, never loaded.
__global__ void __launch_bounds__(1024) im2col_kernel(Shape s, const float* in, float* col) {
    const int pq = s.p * s.q, rs = s.r * s.s, depth = s.c * rs;
    const long long total = static_cast<long long>(s.n) * depth * pq;
    const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
        const long long ng = i / pq;  // n*depth + g
        const int j = static_cast<int>(i - ng * pq), p = j / s.q, q = j - p * s.q;
        const long long n = ng / depth;
        const int g = static_cast<int>(ng - n * depth), c = g / rs, tap = g - c * rs, r = tap / s.s;
        const int y = p * s.stride + r - s.pad, x = q * s.stride + tap - r * s.s - s.pad;
        col[i] = (y >= 0 && y < s.h && x >= 0 && x < s.w) ? in[input_plane(s, n, c) + y * s.w + x] : 0.0f;
    }
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
