// The CUDA attention kernels, fp32, emulatable (no <<< >>>, only _sync warp intrinsics):
// naive (scores, softmax, PV), flash (FlashAttention-2 loop order) and decode_splitkv
// (Flash-Decoding: partial outputs per key split, then a combine). Launched by
// attention_forward.cu; layouts and masking in device_case.hpp.
#pragma once

#include <cmath>
#include <cstddef>

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "kernels/attention/cuda/device_case.hpp"
#include "cuda_emu/cuda.hpp"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

constexpr unsigned full_mask = 0xffffffffu;
constexpr int warp_size = 32;

__device__ __forceinline__ float warp_max(float v) {
    for (int offset = warp_size / 2; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_xor_sync(full_mask, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = warp_size / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(full_mask, v, offset);
    return v;
}

// Keys 0 .. visible_keys(s, i) - 1 are visible to query row i.
__device__ __forceinline__ int visible_keys(const Shape& s, int i) {
    if (!s.causal) return s.seq_k;
    const int n = i + s.seq_k - s.seq_q + 1;
    return n < 0 ? 0 : (n > s.seq_k ? s.seq_k : n);
}

__device__ __forceinline__ int thread_index() { return static_cast<int>(threadIdx.x); }
__device__ __forceinline__ int block_threads() { return static_cast<int>(blockDim.x); }

// ---- naive ----

// scores[h, i, j] = scale * q_i . k_j, or -inf where the mask hides key j. Thread (x, y) of
// the grid computes (j, i); blockIdx.z is the head.
__global__ void naive_scores_kernel(Shape s, const float* q, const float* k, float* scores) {
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
    const float* qi = q + (h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i)) * d;
    const float* kj = k + (h * static_cast<std::size_t>(s.seq_k) + static_cast<std::size_t>(j)) * d;
    float acc = 0.0f;
    for (std::size_t c = 0; c < d; ++c) acc = fmaf(qi[c], kj[c], acc);
    out[j] = acc * s.scale;
}

// Row softmax in place, a warp per row of `rows`; a row with no visible key becomes zeros.
__global__ void naive_softmax_kernel(Shape s, long long rows, float* scores) {
    const int lane = thread_index() % warp_size;
    const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / warp_size) +
                          thread_index() / warp_size;
    if (row >= rows) return;  // the whole warp
    float* p = scores + static_cast<std::size_t>(row) * static_cast<std::size_t>(s.seq_k);
    float m = -INFINITY;
    for (int j = lane; j < s.seq_k; j += warp_size) m = fmaxf(m, p[j]);
    m = warp_max(m);
    float l = 0.0f;
    for (int j = lane; j < s.seq_k; j += warp_size) {
        const float e = m == -INFINITY ? 0.0f : expf(p[j] - m);
        p[j] = e;
        l += e;
    }
    l = warp_sum(l);
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    for (int j = lane; j < s.seq_k; j += warp_size) p[j] *= inv;
}

// o[row, c] = sum_j p[row, j] v[j, c]: a block of head_dim threads per query row.
__global__ void naive_pv_kernel(Shape s, const float* p, const float* v, float* o) {
    const std::size_t row = blockIdx.x, c = threadIdx.x, d = static_cast<std::size_t>(s.head_dim);
    const std::size_t sk = static_cast<std::size_t>(s.seq_k);
    const std::size_t h = row / static_cast<std::size_t>(s.seq_q);
    const float* pr = p + row * sk;
    const float* vh = v + h * sk * d;
    float acc = 0.0f;
    for (std::size_t j = 0; j < sk; ++j) acc = fmaf(pr[j], vh[j * d + c], acc);
    o[row * d + c] = acc;
}

// ---- flash ----

// One block per tile of br query rows of one head (blockIdx.x tile, blockIdx.y head). The
// block stages K and V tiles of bc keys in shared memory; each warp owns br / warps query
// rows and keeps their running max and sum (online softmax, FlashAttention-2 order: the
// output is rescaled per tile and divided by the sum once at the end). The output
// accumulator lives in shared memory rather than registers, so that Br and head_dim can be
// run-time values. Layout of the shared memory: flash_shared_bytes.
__global__ void __launch_bounds__(1024) flash_kernel(Shape s, int br, int bc, const float* q,
                                                      const float* k, const float* v, float* o) {
    MEMWALL_DYNAMIC_SHARED(float, shared);
    const int d = s.head_dim, ks = d + 1;  // K tile rows padded against bank conflicts
    float* qt = shared;
    float* kt = qt + br * d;
    float* vt = kt + bc * ks;
    float* pt = vt + bc * d;
    float* acc = pt + br * bc;
    float* row_max = acc + br * d;
    float* row_sum = row_max + br;

    const int tid = thread_index(), threads = block_threads();
    const int lane = tid % warp_size, warp = tid / warp_size;
    const int rows_per_warp = br / (threads / warp_size);
    const int i0 = static_cast<int>(blockIdx.x) * br;
    const int rows = min(br, s.seq_q - i0);
    const std::size_t h = blockIdx.y, du = static_cast<std::size_t>(d);
    const float* qh = q + (h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i0)) * du;
    const float* kh = k + h * static_cast<std::size_t>(s.seq_k) * du;
    const float* vh = v + h * static_cast<std::size_t>(s.seq_k) * du;
    float* oh = o + (h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i0)) * du;

    for (int x = tid; x < rows * d; x += threads) {
        qt[x] = qh[x];
        acc[x] = 0.0f;
    }
    for (int r = tid; r < br; r += threads) {
        row_max[r] = -INFINITY;
        row_sum[r] = 0.0f;
    }
    // The tile's last row sees the most keys; tiles past them are not loaded.
    const int kend = visible_keys(s, i0 + rows - 1);
    for (int j0 = 0; j0 < kend; j0 += bc) {
        const int cols = min(bc, kend - j0);
        __syncthreads();  // the previous K/V tiles (and the initialisation) are done with
        const float* kj = kh + static_cast<std::size_t>(j0) * du;
        const float* vj = vh + static_cast<std::size_t>(j0) * du;
        for (int x = tid; x < cols * d; x += threads) {
            kt[(x / d) * ks + x % d] = kj[x];
            vt[x] = vj[x];
        }
        __syncthreads();
        for (int rr = 0; rr < rows_per_warp; ++rr) {
            const int r = warp * rows_per_warp + rr;
            if (r >= rows) break;  // warp-uniform
            const int seen = visible_keys(s, i0 + r) - j0;  // keys of this tile row r sees
            const float* qr = qt + r * d;
            float* pr = pt + r * bc;
            float tile_max = -INFINITY;
            for (int j = lane; j < cols; j += warp_size) {
                float x = -INFINITY;
                if (j < seen) {
                    float dot = 0.0f;
                    for (int c = 0; c < d; ++c) dot = fmaf(qr[c], kt[j * ks + c], dot);
                    x = dot * s.scale;
                }
                pr[j] = x;
                tile_max = fmaxf(tile_max, x);
            }
            const float old_max = row_max[r];
            const float new_max = fmaxf(old_max, warp_max(tile_max));
            // A row that has seen no key yet keeps max -inf and probabilities 0.
            float tile_sum = 0.0f;
            for (int j = lane; j < cols; j += warp_size) {
                const float e = new_max == -INFINITY ? 0.0f : expf(pr[j] - new_max);
                pr[j] = e;
                tile_sum += e;
            }
            tile_sum = warp_sum(tile_sum);
            const float alpha = old_max == -INFINITY ? 0.0f : expf(old_max - new_max);
            __syncwarp();  // every lane reads the whole probability row
            float* ar = acc + r * d;
            for (int c = lane; c < d; c += warp_size) {
                float a = ar[c] * alpha;
                for (int j = 0; j < cols; ++j) a = fmaf(pr[j], vt[j * d + c], a);
                ar[c] = a;
            }
            if (lane == 0) {
                row_max[r] = new_max;
                row_sum[r] = row_sum[r] * alpha + tile_sum;
            }
        }
    }
    __syncthreads();  // the initialisation, when no tile was visible; the row sums of lane 0
    for (int rr = 0; rr < rows_per_warp; ++rr) {
        const int r = warp * rows_per_warp + rr;
        if (r >= rows) break;
        const float l = row_sum[r];
        const float inv = l > 0.0f ? 1.0f / l : 0.0f;  // a row without visible keys is zeros
        for (int c = lane; c < d; c += warp_size) oh[r * d + c] = acc[r * d + c] * inv;
    }
}

// ---- decode_splitkv ----

// Reduces v over the block (decode_threads threads) through `scratch`, one float per warp.
template <bool Max>
__device__ __forceinline__ float block_reduce(float v, float* scratch) {
    v = Max ? warp_max(v) : warp_sum(v);
    if (thread_index() % warp_size == 0) scratch[thread_index() / warp_size] = v;
    __syncthreads();
    float r = scratch[0];
    for (int w = 1; w < decode_threads / warp_size; ++w) r = Max ? fmaxf(r, scratch[w]) : r + scratch[w];
    __syncthreads();  // scratch is reused by the next reduction
    return r;
}

// Block (split, head) attends the single query to keys [split * chunk, (split + 1) * chunk)
// in tiles of decode_threads keys with an online softmax, and writes its output normalised by
// its own sum, and that sum's log-sum-exp (-inf, with zeros, for a split without keys).
// seq_q = 1: the query sees every key, causal or not.
__global__ void __launch_bounds__(decode_threads)
    decode_split_kernel(Shape s, int splits, const float* q, const float* k, const float* v,
                        float* part_o, float* part_lse) {
    __shared__ float qs[128];
    __shared__ float scores[decode_threads];
    __shared__ float partial[decode_threads];
    __shared__ float scratch[decode_threads / warp_size];
    const int d = s.head_dim, tid = thread_index();
    const int lane = tid % warp_size, warp = tid / warp_size, warps = decode_threads / warp_size;
    const int split = static_cast<int>(blockIdx.x);
    const std::size_t h = blockIdx.y, du = static_cast<std::size_t>(d);
    const int chunk = (s.seq_k + splits - 1) / splits;
    const int begin = min(s.seq_k, split * chunk), end = min(s.seq_k, begin + chunk);
    const float* kh = k + h * static_cast<std::size_t>(s.seq_k) * du;
    const float* vh = v + h * static_cast<std::size_t>(s.seq_k) * du;
    for (int c = tid; c < d; c += decode_threads) qs[c] = q[h * du + static_cast<std::size_t>(c)];
    __syncthreads();

    // Thread tid accumulates column tid % d over every (decode_threads / d)-th key.
    const int column = tid % d, group = tid / d, groups = decode_threads / d;
    float m = -INFINITY, l = 0.0f, acc = 0.0f;
    for (int j0 = begin; j0 < end; j0 += decode_threads) {
        const int n = min(decode_threads, end - j0);
        for (int j = warp; j < n; j += warps) {  // a warp per key, coalesced over d
            const float* kj = kh + static_cast<std::size_t>(j0 + j) * du;
            float dot = 0.0f;
            for (int c = lane; c < d; c += warp_size) dot = fmaf(qs[c], kj[c], dot);
            dot = warp_sum(dot);
            if (lane == 0) scores[j] = dot * s.scale;
        }
        __syncthreads();
        const float x = tid < n ? scores[tid] : -INFINITY;
        const float new_max = fmaxf(m, block_reduce<true>(x, scratch));  // finite: n >= 1
        const float e = tid < n ? expf(x - new_max) : 0.0f;
        scores[tid] = e;  // published by the barriers of the sum
        const float alpha = expf(m - new_max);  // 0 on the first tile
        l = l * alpha + block_reduce<false>(e, scratch);
        m = new_max;
        acc *= alpha;
        for (int j = group; j < n; j += groups)
            acc = fmaf(scores[j], vh[static_cast<std::size_t>(j0 + j) * du + static_cast<std::size_t>(column)], acc);
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
__global__ void decode_combine_kernel(Shape s, int splits, const float* part_o, const float* part_lse,
                                      float* o) {
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
    o[h * d + c] = acc / weights;
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
