// im2win_tc: im2win's GEMM on tensor cores (tc_gemm.cuh). The window tensor, channels last
// (im2win_transform.cuh), holds the window of output (p, q) as S*R*C contiguous elements from
// ((n*P + p)*(W + 2 pad) + q*stride)*R*C: B's row of a pixel is one run, read with no index math
// and no bounds but the depth's end (the padding is in the tensor). The filter is KSRC, the
// windows' order.
#pragma once

#include "kernels/conv/cuda/tc_gemm.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// blockIdx.x: tiles of BN pixels, blockIdx.y: tiles of BM filters; `channels` is C padded.
template <class T, int BM, int BN, int STAGES>
__global__ void __launch_bounds__(kConvTcWarps* kWarpSize)
    im2win_tc_kernel(Shape s, int channels, const T* win, const T* filter, T* out) {
    constexpr int rows = kTcBRows<BN>;
    const long long pixels = static_cast<long long>(s.n) * s.p * s.q;
    const int depth = s.s * s.r * channels;
    const long long column = static_cast<long long>(s.r) * channels;  // elements of one padded column
    // This thread's pixel rows of B: where each window starts, -1 past the last pixel.
    long long start[rows];
    MEMWALL_UNROLL
    for (int i = 0; i < rows; ++i) {
        const long long m = tc_b_pixel<BN>(i);
        const long long np = m / s.q;  // n*P + p
        start[i] = m < pixels ? (np * (s.w + 2 * s.pad) + m % s.q * s.stride) * column : -1;
    }
    tc_gemm<T, BM, BN, STAGES>(s.k, depth, pixels, filter, out, [&](int i, int d, uint4* dst) {
        const bool read = start[i] >= 0 && d < depth;
        cp_async_cg_zfill(dst, win + (read ? start[i] + d : 0), read ? kConvTcChunkBytes : 0);
    });
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
