// im2win's transform: the input in window order. For each image n, channel c and output row p,
// row (n, c, p) of the window tensor holds, for every column w of the padded input (W + 2 pad of
// them), the R elements of that column in input rows p*stride .. p*stride + R - 1:
//   win[n][c][p][w*R + r] = in[n][c][p*stride + r - pad][w - pad], 0 in the padding.
// The window of output (p, q) is then the S*R contiguous floats from q*stride*R. im2win_tc's
// channels-last form of the same tensor is im2win_transform_nhwc.cuh's.
#pragma once

#include "kernels/conv/cuda/common.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// One element per thread per step of a grid-stride loop, in the tensor's order, so stores
// coalesce; a warp's loads (r fastest) touch R input rows at a few consecutive columns each, which
// the next columns' loads find in L1. Padding is written as 0, never loaded.
__global__ void __launch_bounds__(1024) im2win_transform_kernel(Shape s, const float* in, float* win) {
    const int row = (s.w + 2 * s.pad) * s.r;  // floats of one (n, c, p)
    const long long total = static_cast<long long>(s.n) * s.c * s.p * row;
    const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
        const long long ncp = i / row;  // (n*C + c)*P + p
        const int e = static_cast<int>(i - ncp * row);
        const int w = e / s.r, r = e - w * s.r;
        const int p = static_cast<int>(ncp % s.p);
        const long long nc = ncp / s.p;
        const int y = p * s.stride + r - s.pad, x = w - s.pad;
        win[i] = (y >= 0 && y < s.h && x >= 0 && x < s.w) ? in[(nc * s.h + y) * s.w + x] : 0.0f;
    }
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
