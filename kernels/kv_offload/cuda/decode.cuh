// The decode attention of every CUDA kv_offload variant (Flash-Decoding's split): block (split,
// head) of `warps` warps; each warp takes every P-th token of the pages (P = splits × warps
// partials per head), reads the token's key and value rows whole (lane l holds elements l,
// l + 32, ...: a warp request is 128 contiguous bytes, one line when the row is aligned) and
// keeps an online softmax; it writes its unnormalised output with its max and sum, and a combine
// kernel merges a head's partials. The pages are wherever the launcher points: device memory, a
// staging buffer, or mapped host memory (zero-copy).
#pragma once

// Standard headers first: cuda-emu's __noinline__ macro breaks libstdc++'s uses of the
// attribute in headers included after it.
#include "kernels/kv_offload/cuda/device_case.hpp"
#include "kernels/kit/cuda/common.cuh"

namespace memwall::kv_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

struct DecodeArgs {
    const float* kv = nullptr;      // page 0
    std::size_t page_stride = 0;    // floats from a page to the next
    const int* page_ids = nullptr;  // the launch's pages; null: the i-th page is page i
    int pages = 0;                  // pages this launch attends
    int page_tokens = 0, heads = 0;
    float scale = 0;            // 1 / sqrt(head_dim)
    const float* q = nullptr;   // this step's queries, heads × head_dim
    float* partial = nullptr;   // [heads][partials_per_head][head_dim + 2]
    int partials_per_head = 0;  // of the step, every launch's together
    int first_partial = 0;      // this launch's first
};

// A partial's record: head_dim sums of exp(s - max)·v, then max and sum of exp(s - max).
// L = head_dim / 32 elements per lane.
template <int L>
__global__ void decode_partial_kernel(DecodeArgs a) {
    constexpr int d = L * kWarpSize;
    const int lane = thread_index() % kWarpSize, warp = thread_index() / kWarpSize;
    const int warps = block_threads() / kWarpSize;
    const int h = static_cast<int>(blockIdx.y);
    const int partial = static_cast<int>(blockIdx.x) * warps + warp;
    const long long partials = static_cast<long long>(gridDim.x) * warps;
    const long long tokens = static_cast<long long>(a.pages) * a.page_tokens;
    const std::size_t v_offset = static_cast<std::size_t>(a.heads) * a.page_tokens * d;

    float q[L], acc[L];
    for (int r = 0; r < L; ++r) {
        q[r] = a.q[h * d + r * kWarpSize + lane];
        acc[r] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (long long g = partial; g < tokens; g += partials) {
        const int i = static_cast<int>(g / a.page_tokens), j = static_cast<int>(g % a.page_tokens);
        const int page = a.page_ids ? a.page_ids[i] : i;
        const float* k = a.kv + static_cast<std::size_t>(page) * a.page_stride +
                         (static_cast<std::size_t>(h) * a.page_tokens + j) * d;
        const float* v = k + v_offset;
        float dot = 0.0f;
        for (int r = 0; r < L; ++r) dot = fmaf(q[r], k[r * kWarpSize + lane], dot);
        // The butterfly leaves every lane the same sum, so the branch below is uniform.
        const float s = warp_sum(dot) * a.scale;
        if (s > m) {  // rescale what was summed under the old maximum (0 before the first token)
            const float c = expf(m - s);
            l *= c;
            for (int r = 0; r < L; ++r) acc[r] *= c;
            m = s;
        }
        const float e = expf(s - m);
        l += e;
        for (int r = 0; r < L; ++r) acc[r] = fmaf(e, v[r * kWarpSize + lane], acc[r]);
    }
    float* out = a.partial + (static_cast<std::size_t>(h) * a.partials_per_head + a.first_partial + partial) * (d + 2);
    for (int r = 0; r < L; ++r) out[r * kWarpSize + lane] = acc[r];
    if (lane == 0) {
        out[d] = m;
        out[d + 1] = l;
    }
}

// Block h of head_dim threads, thread c: output element c of head h from the head's partials. A
// partial without tokens has max -inf and adds nothing; every head has at least one with tokens.
__global__ void decode_combine_kernel(const float* partial, int partials, int head_dim, float* out) {
    const int h = static_cast<int>(blockIdx.x), c = thread_index();
    const std::size_t record = static_cast<std::size_t>(head_dim) + 2;
    const float* p = partial + static_cast<std::size_t>(h) * partials * record;
    float m = -INFINITY;
    for (int i = 0; i < partials; ++i) m = fmaxf(m, p[i * record + head_dim]);
    float sum = 0.0f, o = 0.0f;
    for (int i = 0; i < partials; ++i) {
        const float w = expf(p[i * record + head_dim] - m);
        sum = fmaf(p[i * record + head_dim + 1], w, sum);
        o = fmaf(p[i * record + c], w, o);
    }
    out[static_cast<std::size_t>(h) * head_dim + c] = o / sum;
}

}  // namespace memwall::kv_cuda::MEMWALL_CUDA_NS
