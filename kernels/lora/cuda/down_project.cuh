// The down-projection of fused and multi_adapter: S = α/(1-p) · (mask ⊙ X) · A_adapter, dropout
// applied as X is read (X' is never written). A warp per token: lane l reads element 32i + l of
// the token's row and its mask bit, the warp passes each element around by shuffle, and lane l
// accumulates S's columns l, l + 32, ... (RJ of them) reading A's rows, which L1 and L2 serve
// after the first token of a block. Each element of X and each mask word is loaded once, each
// element of S stored once.
#pragma once

#include "kernels/lora/cuda/common.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

template <class T>
struct DownArgs {
    int m, k, r;
    float scale;            // α / (1 - p)
    const T* x;             // M×K
    const unsigned* mask;   // mask_words per token
    const T* a;             // A (K×r) of every adapter, stacked
    const int* adapter_of;  // per token; null: every token uses the first A
    T* s;                   // M×r, rounded to T
};

// blockIdx.x: tiles of kDownWarps tokens; kDownWarps × 32 threads. No barriers: a warp past the
// last token returns whole.
template <class T, int RJ>
__global__ void down_project_kernel(DownArgs<T> d) {
    const int lane = thread_index() % kWarpSize;
    const int t = static_cast<int>(blockIdx.x) * (block_threads() / kWarpSize) + thread_index() / kWarpSize;
    if (t >= d.m) return;
    int adapter = 0;
    if (d.adapter_of) {
        if (lane == 0) adapter = d.adapter_of[t];
        adapter = __shfl_sync(kFullMask, adapter, 0);
    }
    const T* a = d.a + static_cast<long long>(adapter) * d.k * d.r;
    const T* x = d.x + static_cast<long long>(t) * d.k;
    const int words = (d.k + 31) / 32;
    const unsigned* row_mask = d.mask + static_cast<long long>(t) * words;
    float acc[RJ];
    for (int i = 0; i < RJ; ++i) acc[i] = 0.0f;
    for (int w = 0; w < words; ++w) {
        const int k0 = w * kWarpSize, k = k0 + lane;
        const unsigned bits = mask_word(row_mask, w, lane);
        const float v = k < d.k ? to_float(x[k]) * kept(bits, lane) : 0.0f;
        const int depth = min(kWarpSize, d.k - k0);
        for (int kk = 0; kk < depth; ++kk) {
            const float xk = __shfl_sync(kFullMask, v, kk);
            const T* a_row = a + static_cast<long long>(k0 + kk) * d.r;
            for (int i = 0; i < RJ; ++i) {
                const int j = lane + i * kWarpSize;
                if (j < d.r) acc[i] = fmaf(xk, to_float(a_row[j]), acc[i]);
            }
        }
    }
    for (int i = 0; i < RJ; ++i) {
        const int j = lane + i * kWarpSize;
        if (j < d.r) d.s[static_cast<long long>(t) * d.r + j] = from_float<T>(d.scale * acc[i]);
    }
}

// The instantiation for rank r: columns of S per lane, r / 32 rounded up to a power of two
// (r <= kMaxRank).
template <class T>
auto down_project_for(int r) -> void (*)(DownArgs<T>) {
    if (r <= 32) return down_project_kernel<T, 1>;
    if (r <= 64) return down_project_kernel<T, 2>;
    if (r <= 128) return down_project_kernel<T, 4>;
    return down_project_kernel<T, 8>;
}

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
