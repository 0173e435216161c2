// direct: the convolution as written, one thread per output pixel for KPT consecutive filters.
// Each input tap a thread loads serves its KPT filters from registers. Consecutive threads take
// consecutive pixels (along q), so input loads and output stores coalesce; a warp's filter loads
// are mostly one address (a broadcast). Taps outside the input are skipped, never loaded.
#pragma once

#include "kernels/conv/cuda/common.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// blockIdx.x: a run of blockDim.x pixels of the P x Q output plane; blockIdx.y: groups of KPT
// filters; blockIdx.z: images (both loop when the grid is narrower than K / KPT or N).
template <int KPT>
__global__ void __launch_bounds__(1024) direct_kernel(Shape s, const float* in, const float* filter, float* out) {
    const int pixels = s.p * s.q;
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= pixels) return;  // no barrier follows
    const int p = j / s.q, q = j % s.q;
    const int rs = s.r * s.s, groups = (s.k + KPT - 1) / KPT;
    const long long filter_stride = static_cast<long long>(s.c) * rs;  // between filters k and k + 1
    for (int g = static_cast<int>(blockIdx.y); g < groups; g += static_cast<int>(gridDim.y)) {
        const int k0 = g * KPT, nk = min(KPT, s.k - k0);
        for (int n = static_cast<int>(blockIdx.z); n < s.n; n += static_cast<int>(gridDim.z)) {
            float acc[KPT];
            for (int i = 0; i < KPT; ++i) acc[i] = 0.0f;
            for (int c = 0; c < s.c; ++c) {
                const float* x = in + input_plane(s, n, c);
                const float* f = filter + k0 * filter_stride + static_cast<long long>(c) * rs;
                for (int r = 0; r < s.r; ++r) {
                    const int y = p * s.stride + r - s.pad;
                    if (y < 0 || y >= s.h) continue;
                    for (int t = 0; t < s.s; ++t) {
                        const int xx = q * s.stride + t - s.pad;
                        if (xx < 0 || xx >= s.w) continue;
                        const float v = x[y * s.w + xx];
                        for (int i = 0; i < KPT; ++i)
                            if (i < nk) acc[i] = fmaf(f[i * filter_stride + r * s.s + t], v, acc[i]);
                    }
                }
            }
            float* o = out + output_plane(s, n, k0) + j;
            for (int i = 0; i < KPT; ++i)
                if (i < nk) o[static_cast<long long>(i) * pixels] = acc[i];
        }
    }
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
