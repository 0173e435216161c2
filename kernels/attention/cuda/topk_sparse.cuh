// topk_sparse's scoring and selection on the GPU: one block per head computes the approximate
// scores q[r] . label (a thread per key, coalesced over the channel-major label cache), then a
// radix selection of the k largest: three passes histogram the scores' ordered bits (11, 11 and
// 10 bits) in shared memory, a block prefix sum over runs of bins finds the bin that holds the
// k-th largest and how many of its ties to take, and a final pass collects the selected keys in
// ascending order, a tile of block-threads keys at a time with block prefix sums (ties lowest key
// first: topk_select's rule, decode.hpp). The exact attention over the selected keys is
// decode_split_kernel's.
#pragma once

#include "kernels/attention/cuda/decode_splitkv.cuh"
#include "kernels/attention/cuda/topk_case.hpp"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

// The score's bits as an unsigned key in the floats' order; +0.0 first, so -0.0 ties with it.
__device__ __forceinline__ unsigned ordered_key(float x) {
    const unsigned u = __float_as_uint(x + 0.0f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// The exclusive prefix sum of v over the block (Hillis-Steele in `buf`), and the block's total.
__device__ __forceinline__ int block_exclusive_scan(int v, int* buf, int& total) {
    const int tid = thread_index(), n = block_threads();
    buf[tid] = v;
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        const int add = tid >= offset ? buf[tid - offset] : 0;
        __syncthreads();
        buf[tid] += add;
        __syncthreads();
    }
    const int inclusive = buf[tid];
    total = buf[n - 1];
    __syncthreads();  // buf is reused by the next scan
    return inclusive - v;
}

// Block h: head h's scores into scores[h][0..seq_k), its k selected keys into selected[h][0..k).
__global__ void topk_select_kernel(Shape s, int r, int k, const int* channels, const float* q, const float* label,
                                   float* scores, int* selected) {
    __shared__ float qr[128];
    __shared__ unsigned hist[1 << 11];
    __shared__ int buf[kMaxSelectThreads];
    __shared__ int pick[2];  // the pass's bin and the ties still to take
    const int tid = thread_index(), threads = block_threads(), n = s.seq_k;
    const std::size_t h = blockIdx.x, nu = static_cast<std::size_t>(n);
    if (tid < r)
        qr[tid] =
            q[h * static_cast<std::size_t>(s.head_dim) +
              static_cast<std::size_t>(channels[h * static_cast<std::size_t>(r) + static_cast<std::size_t>(tid)])];
    __syncthreads();
    const float* lh = label + h * static_cast<std::size_t>(r) * nu;
    float* sh = scores + h * nu;
    for (int j = tid; j < n; j += threads) {
        float acc = 0.0f;
        for (int c = 0; c < r; ++c)
            acc = fmaf(qr[c], lh[static_cast<std::size_t>(c) * nu + static_cast<std::size_t>(j)], acc);
        sh[j] = acc;
    }
    __syncthreads();  // the block's own global writes are visible to it after the barrier

    const int shifts[3] = {21, 10, 0}, widths[3] = {11, 11, 10};
    unsigned prefix = 0, mask = 0;
    int need = k;  // of the keys matching prefix, how many are still to take
    for (int pass = 0; pass < 3; ++pass) {
        const int shift = shifts[pass];
        const unsigned bins = 1u << widths[pass];
        for (unsigned b = static_cast<unsigned>(tid); b < bins; b += static_cast<unsigned>(threads)) hist[b] = 0;
        __syncthreads();
        for (int j = tid; j < n; j += threads) {
            const unsigned u = ordered_key(sh[j]);
            if ((u & mask) == prefix) atomicAdd(&hist[(u >> shift) & (bins - 1)], 1u);
        }
        __syncthreads();
        // Thread t sums a run of `per` bins, counted down from the top; a prefix sum of the runs
        // tells the one thread whose run holds the k-th largest key, which finds its bin.
        const int per = (static_cast<int>(bins) + threads - 1) / threads, top = static_cast<int>(bins) - 1 - tid * per;
        int sum = 0;
        for (int b = top; b > top - per && b >= 0; --b) sum += static_cast<int>(hist[b]);
        int total = 0;
        const int above = block_exclusive_scan(sum, buf, total);
        if (above < need && need <= above + sum) {
            int left = need - above, b = top;
            while (static_cast<int>(hist[b]) < left) left -= static_cast<int>(hist[b--]);  // bins above b: whole
            pick[0] = b;
            pick[1] = left;
        }
        __syncthreads();
        prefix |= static_cast<unsigned>(pick[0]) << shift;
        mask |= (bins - 1) << shift;
        need = pick[1];
        __syncthreads();  // pick and hist are rewritten by the next pass
    }

    // prefix is the k-th largest key; `need` of its ties are taken, lowest keys first.
    int* out = selected + h * static_cast<std::size_t>(k);
    int taken = 0;
    for (int j0 = 0; j0 < n; j0 += threads) {
        const int j = j0 + tid;
        const unsigned u = j < n ? ordered_key(sh[j]) : 0u;
        const int tie = j < n && u == prefix;
        int ties = 0, count = 0;
        const int tie_rank = block_exclusive_scan(tie, buf, ties);
        const int take = j < n && (u > prefix || (tie && tie_rank < need));
        const int at = block_exclusive_scan(take, buf, count);
        if (take) out[taken + at] = j;
        taken += count;
        need -= min(ties, need);
    }
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
