// decode_splitkv (Flash-Decoding, seq_q = 1): blocks of one head attend to separate key ranges
// and write a partial output and its log-sum-exp (fp32 for every T), then a combine kernel
// merges them. T is the element type of Q, K, V and O.
#pragma once

#include "kernels/attention/cuda/common.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

// Reduces v over the block (kDecodeThreads threads) through `scratch`, one float per warp.
template <bool Max>
__device__ __forceinline__ float block_reduce(float v, float* scratch) {
    v = Max ? warp_max(v) : warp_sum(v);
    if (thread_index() % kWarpSize == 0) scratch[thread_index() / kWarpSize] = v;
    __syncthreads();
    float r = scratch[0];
    for (int w = 1; w < kDecodeThreads / kWarpSize; ++w) r = Max ? fmaxf(r, scratch[w]) : r + scratch[w];
    __syncthreads();  // scratch is reused by the next reduction
    return r;
}

// Block (split, head) attends the single query to its share of n keys of head h, [split * chunk,
// (split + 1) * chunk), in tiles of kDecodeThreads keys with an online softmax, and writes its
// output normalised by its own sum, and that sum's log-sum-exp (-inf, with zeros, for a split
// without keys). Key j is row j of K and V, or, given `index` (topk_sparse's selected keys, n per
// head), row index[h * n + j], staged through shared memory a tile at a time.
// seq_q = 1: the query sees every key, causal or not.
template <class T>
__global__ void __launch_bounds__(kDecodeThreads)
    decode_split_kernel(Shape s, int splits, int n_keys, const int* index, const T* q, const T* k, const T* v,
                        float* part_o, float* part_lse) {
    __shared__ float qs[128];
    __shared__ float scores[kDecodeThreads];
    __shared__ float partial[kDecodeThreads];
    __shared__ float scratch[kDecodeThreads / kWarpSize];
    __shared__ int rows[kDecodeThreads];
    const int d = s.head_dim, tid = thread_index();
    const int lane = tid % kWarpSize, warp = tid / kWarpSize, warps = kDecodeThreads / kWarpSize;
    const int split = static_cast<int>(blockIdx.x);
    const std::size_t h = blockIdx.y, du = static_cast<std::size_t>(d);
    const int chunk = (n_keys + splits - 1) / splits;
    const int begin = min(n_keys, split * chunk), end = min(n_keys, begin + chunk);
    const T* kh = k + h * static_cast<std::size_t>(s.seq_k) * du;
    const T* vh = v + h * static_cast<std::size_t>(s.seq_k) * du;
    const int* ih = index ? index + h * static_cast<std::size_t>(n_keys) : nullptr;
    for (int c = tid; c < d; c += kDecodeThreads) qs[c] = to_float(q[h * du + static_cast<std::size_t>(c)]);
    __syncthreads();

    // Thread tid accumulates column tid % d over every (kDecodeThreads / d)-th key.
    const int column = tid % d, group = tid / d, groups = kDecodeThreads / d;
    float m = -INFINITY, l = 0.0f, acc = 0.0f;
    for (int j0 = begin; j0 < end; j0 += kDecodeThreads) {
        const int n = min(kDecodeThreads, end - j0);
        if (ih) {
            if (tid < n) rows[tid] = ih[j0 + tid];
            __syncthreads();
        }
        for (int j = warp; j < n; j += warps) {  // a warp per key, coalesced over d
            const T* kj = kh + static_cast<std::size_t>(ih ? rows[j] : j0 + j) * du;
            float dot = 0.0f;
            for (int c = lane; c < d; c += kWarpSize) dot = fmaf(qs[c], to_float(kj[c]), dot);
            dot = warp_sum(dot);
            if (lane == 0) scores[j] = dot * s.scale;
        }
        __syncthreads();
        const float x = tid < n ? scores[tid] : -INFINITY;
        const float new_max = fmaxf(m, block_reduce<true>(x, scratch));  // finite: n >= 1
        const float e = tid < n ? expf(x - new_max) : 0.0f;
        scores[tid] = e;                        // published by the barriers of the sum
        const float alpha = expf(m - new_max);  // 0 on the first tile
        l = l * alpha + block_reduce<false>(e, scratch);
        m = new_max;
        acc *= alpha;
        for (int j = group; j < n; j += groups)
            acc = fmaf(
                scores[j],
                to_float(vh[static_cast<std::size_t>(ih ? rows[j] : j0 + j) * du + static_cast<std::size_t>(column)]),
                acc);
        __syncthreads();  // scores is rewritten by the next tile
    }
    partial[tid] = acc;
    __syncthreads();
    if (tid < d) {
        float sum = 0.0f;
        for (int g = 0; g < groups; ++g) sum += partial[g * d + tid];
        const std::size_t at = h * static_cast<std::size_t>(splits) + static_cast<std::size_t>(split);
        part_o[at * du + static_cast<std::size_t>(tid)] = l > 0.0f ? sum / l : 0.0f;
        if (tid == 0) part_lse[at] = l > 0.0f ? m + logf(l) : -INFINITY;
    }
}

// o[h, c] = sum over splits of exp(lse_s - M) o_s[c] / sum of exp(lse_s - M), M the largest
// lse (split 0 always has keys, so M is finite): a block of head_dim threads per head.
template <class T>
__global__ void decode_combine_kernel(Shape s, int splits, const float* part_o, const float* part_lse, T* o) {
    const std::size_t h = blockIdx.x, c = threadIdx.x, d = static_cast<std::size_t>(s.head_dim);
    const std::size_t first = h * static_cast<std::size_t>(splits);
    float m = -INFINITY;
    for (int sp = 0; sp < splits; ++sp) m = fmaxf(m, part_lse[first + static_cast<std::size_t>(sp)]);
    float weights = 0.0f, acc = 0.0f;
    for (int sp = 0; sp < splits; ++sp) {
        const std::size_t at = first + static_cast<std::size_t>(sp);
        const float w = expf(part_lse[at] - m);
        weights += w;
        acc = fmaf(w, part_o[at * d + c], acc);
    }
    o[h * d + c] = from_float<T>(acc / weights);
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
