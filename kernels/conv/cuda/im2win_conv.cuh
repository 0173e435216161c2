// im2win's convolution over the window-order tensor (im2win_transform.cuh): a block computes
// tile_k filters x tile_p output rows x tile_q output columns of one image. Per stage of tile_c
// channels it stages in shared memory the filter tile, reordered to window order (s*R + r), and
// one window strip per output row, each a contiguous run of the window tensor; then every output
// is a dot product of S*R contiguous floats of a strip with a filter row.
#pragma once

#include "kernels/conv/cuda/common.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

// Threads: tile_q consecutive columns (fastest, so output stores coalesce) x tile_p rows x
// tile_k / KPT groups of KPT filters. blockIdx.x: tiles of rows x tiles of columns, blockIdx.y:
// filter tiles, blockIdx.z: images (looping when N exceeds the grid). Shared memory:
// im2win_shared_bytes.
template <int KPT>
__global__ void __launch_bounds__(1024)
    im2win_conv_kernel(Shape s, Tuning t, const float* win, const float* filter, float* out) {
    MEMWALL_DYNAMIC_SHARED(float, shared);
    const int rs = s.r * s.s, frs = t.tile_k * rs;  // one channel's filter tile
    const int strip = ((t.tile_q - 1) * s.stride + s.s) * s.r;
    float* fs = shared;                   // [tile_c][tile_k][S*R]
    float* ws = shared + t.tile_c * frs;  // [tile_c][tile_p][strip]

    const int tid = thread_index(), threads = block_threads();
    const int tq = tid % t.tile_q, pp = (tid / t.tile_q) % t.tile_p, g = tid / (t.tile_q * t.tile_p);
    const int qtiles = (s.q + t.tile_q - 1) / t.tile_q;
    const int p0 = static_cast<int>(blockIdx.x / qtiles) * t.tile_p;
    const int q0 = static_cast<int>(blockIdx.x % qtiles) * t.tile_q;
    const int k0 = static_cast<int>(blockIdx.y) * t.tile_k;
    const int np = min(t.tile_p, s.p - p0), nq = min(t.tile_q, s.q - q0), nk = min(t.tile_k, s.k - k0);
    const int len = ((nq - 1) * s.stride + s.s) * s.r;  // strip floats the block's windows cover
    const int row = (s.w + 2 * s.pad) * s.r;            // floats of one (n, c, p) of the tensor
    const bool computes = tq < nq && pp < np;

    for (int n = static_cast<int>(blockIdx.z); n < s.n; n += static_cast<int>(gridDim.z)) {
        float acc[KPT];
        for (int i = 0; i < KPT; ++i) acc[i] = 0.0f;
        for (int c0 = 0; c0 < s.c; c0 += t.tile_c) {
            const int nc = min(t.tile_c, s.c - c0);
            __syncthreads();  // the previous stage's tiles are done with
            // Read in KCRS order (a filter's nc channels are one contiguous run of nc*R*S), stored
            // in window order; rows past the last filter are 0.
            for (int e = tid; e < nc * frs; e += threads) {
                const int kc = e / rs, gi = e - kc * rs, kk = kc / nc, cc = kc - kk * nc;
                const int r = gi / s.s, x = gi - r * s.s;
                fs[cc * frs + kk * rs + x * s.r + r] =
                    kk < nk ? filter[(static_cast<long long>(k0 + kk) * s.c + c0 + cc) * rs + gi] : 0.0f;
            }
            for (int e = tid; e < nc * np * len; e += threads) {
                const int cr = e / len, x = e - cr * len, cc = cr / np, rr = cr - cc * np;
                ws[(cc * t.tile_p + rr) * strip + x] =
                    win[((static_cast<long long>(n) * s.c + c0 + cc) * s.p + p0 + rr) * row + q0 * s.stride * s.r + x];
            }
            __syncthreads();
            if (computes)
                for (int cc = 0; cc < nc; ++cc) {
                    const float* wv = ws + (cc * t.tile_p + pp) * strip + tq * s.stride * s.r;
                    const float* fv = fs + cc * frs + g * KPT * rs;
                    for (int j = 0; j < rs; ++j) {
                        const float x = wv[j];
                        for (int i = 0; i < KPT; ++i) acc[i] = fmaf(fv[i * rs + j], x, acc[i]);
                    }
                }
        }
        if (computes)
            for (int i = 0; i < KPT; ++i) {
                const int k = k0 + g * KPT + i;
                if (k < s.k) out[output_plane(s, n, k) + (p0 + pp) * s.q + q0 + tq] = acc[i];
            }
    }
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
