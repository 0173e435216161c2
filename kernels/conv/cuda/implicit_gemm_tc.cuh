// implicit_gemm_tc: the implicit GEMM on tensor cores (tc_gemm.cuh), im2col gathered inside B's
// loads: depth element d of pixel (n, p, q) is channel d % C of tap d / C = (r, s), the NHWC
// input's element (n, p*stride + r - pad, q*stride + s - pad, c); a tap in the padding is a
// zero-filled chunk that reads nothing. The filter is KRSC, the depth order of the gather.
#pragma once

#include "kernels/conv/cuda/tc_gemm.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// blockIdx.x: tiles of BN pixels, blockIdx.y: tiles of BM filters; `channels` is C padded
// (tc_tiles.hpp), the input's and filter's innermost extent.
template <class T, int BM, int BN, int STAGES>
__global__ void __launch_bounds__(kConvTcWarps* kWarpSize)
    implicit_gemm_tc_kernel(Shape s, int channels, const T* in, const T* filter, T* out) {
    constexpr int rows = kTcBRows<BN>;
    const long long pixels = static_cast<long long>(s.n) * s.p * s.q;
    const int pq = s.p * s.q;
    // This thread's pixel rows of B, fixed over the depth: the image's first element, the first
    // input row and column of the window; a row past the last pixel gets a row no tap reaches.
    long long image[rows];
    int y0[rows], x0[rows];
    MEMWALL_UNROLL
    for (int i = 0; i < rows; ++i) {
        const long long m = tc_b_pixel<BN>(i);
        const int n = static_cast<int>(m / pq), o = static_cast<int>(m % pq);
        image[i] = static_cast<long long>(n) * s.h * s.w * channels;
        y0[i] = m < pixels ? (o / s.q) * s.stride - s.pad : -s.r - s.h;
        x0[i] = (o % s.q) * s.stride - s.pad;
    }
    tc_gemm<T, BM, BN, STAGES>(s.k, s.r * s.s * channels, pixels, filter, out, [&](int i, int d, uint4* dst) {
        const int tap = d / channels, c = d - tap * channels, r = tap / s.s;
        const int y = y0[i] + r, x = x0[i] + tap - r * s.s;
        const bool read = r < s.r && y >= 0 && y < s.h && x >= 0 && x < s.w;
        cp_async_cg_zfill(dst, in + (read ? image[i] + (static_cast<long long>(y) * s.w + x) * channels + c : 0),
                          read ? kConvTcChunkBytes : 0);
    });
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
