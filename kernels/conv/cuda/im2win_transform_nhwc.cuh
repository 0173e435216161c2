// im2win's transform (im2win_transform.cuh) with channels last, for im2win_tc: from the NHWC input (C padded to
// whole 16-byte chunks, tc_tiles.hpp), row (n, p) holds for every padded column w its R elements'
// channels:
//   win[n][p][w][r][c] = in[n][p*stride + r - pad][w - pad][c], 0 in the padding,
// so the window of output (p, q) is the S*R*C contiguous elements from q*stride*R*C. Moved in
// 16-byte chunks of channels, in the tensor's order (stores coalesce; a warp's loads read the
// consecutive chunks of a few input pixels).
#pragma once

#include "kernels/conv/cuda/common.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

__global__ void __launch_bounds__(1024) im2win_transform_nhwc_kernel(Shape s, int chunks, const uint4* in, uint4* win) {
    const int wp = s.w + 2 * s.pad;
    const long long total = static_cast<long long>(s.n) * s.p * wp * s.r * chunks;
    const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
        long long rest = i / chunks;
        const int cc = static_cast<int>(i - rest * chunks);
        const int r = static_cast<int>(rest % s.r);
        rest /= s.r;
        const int w = static_cast<int>(rest % wp);
        rest /= wp;
        const int p = static_cast<int>(rest % s.p);
        const long long n = rest / s.p;
        const int y = p * s.stride + r - s.pad, x = w - s.pad;
        win[i] = (y >= 0 && y < s.h && x >= 0 && x < s.w) ? in[((n * s.h + y) * s.w + x) * chunks + cc]
                                                          : make_uint4(0, 0, 0, 0);
    }
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
