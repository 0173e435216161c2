// naive: three kernels over the score matrix in global memory (fp32 for every T): S =
// scale * Q K^T, a row softmax in place, O = P V. T is the element type of Q, K, V and O.
#pragma once

#include "kernels/attention/cuda/common.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

// scores[h, i, j] = scale * q_i . k_j, or -inf where the mask hides key j. Thread (x, y) of
// the grid computes (j, i); blockIdx.z is the head.
template <class T>
__global__ void naive_scores_kernel(Shape s, const T* q, const T* k, float* scores) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    const std::size_t h = blockIdx.z, d = static_cast<std::size_t>(s.head_dim);
    if (i >= s.seq_q || j >= s.seq_k) return;
    float* out = scores + (h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i)) *
                              static_cast<std::size_t>(s.seq_k);
    if (j >= visible_keys(s, i)) {
        out[j] = -INFINITY;
        return;
    }
    const T* qi = q + (h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i)) * d;
    const T* kj = k + (h * static_cast<std::size_t>(s.seq_k) + static_cast<std::size_t>(j)) * d;
    float acc = 0.0f;
    for (std::size_t c = 0; c < d; ++c) acc = fmaf(to_float(qi[c]), to_float(kj[c]), acc);
    out[j] = acc * s.scale;
}

// Row softmax in place, a warp per row of `rows`; a row with no visible key becomes zeros.
__global__ void naive_softmax_kernel(Shape s, long long rows, float* scores) {
    const int lane = thread_index() % kWarpSize;
    const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / kWarpSize) + thread_index() / kWarpSize;
    if (row >= rows) return;  // the whole warp
    float* p = scores + static_cast<std::size_t>(row) * static_cast<std::size_t>(s.seq_k);
    float m = -INFINITY;
    for (int j = lane; j < s.seq_k; j += kWarpSize) m = fmaxf(m, p[j]);
    m = warp_max(m);
    float l = 0.0f;
    for (int j = lane; j < s.seq_k; j += kWarpSize) {
        const float e = m == -INFINITY ? 0.0f : expf(p[j] - m);
        p[j] = e;
        l += e;
    }
    l = warp_sum(l);
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    for (int j = lane; j < s.seq_k; j += kWarpSize) p[j] *= inv;
}

// o[row, c] = sum_j p[row, j] v[j, c]: a block of head_dim threads per query row.
template <class T>
__global__ void naive_pv_kernel(Shape s, const float* p, const T* v, T* o) {
    const std::size_t row = blockIdx.x, c = threadIdx.x, d = static_cast<std::size_t>(s.head_dim);
    const std::size_t sk = static_cast<std::size_t>(s.seq_k);
    const std::size_t h = row / static_cast<std::size_t>(s.seq_q);
    const float* pr = p + row * sk;
    const T* vh = v + h * sk * d;
    float acc = 0.0f;
    for (std::size_t j = 0; j < sk; ++j) acc = fmaf(pr[j], to_float(vh[j * d + c]), acc);
    o[row * d + c] = from_float<T>(acc);
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
