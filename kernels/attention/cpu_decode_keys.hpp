// What the CPU decode kernels (cpu_decode_splitkv.cpp, cpu_topk_sparse.cpp) share: one query
// attended to a list of keys with an online softmax. Kernel code: included after kit/simd.hpp, between
// MEMWALL_KERNEL_BEGIN and END.
#pragma once

namespace memwall {

namespace {

using namespace kit::simd;
constexpr float kDecodeLog2e = 1.4426950408889634f;
// Keys per online-softmax step: their scores are exponentiated as whole vectors.
constexpr int kDecodeBlock = 16;
static_assert(kDecodeBlock % lanes == 0);
constexpr std::int64_t kPrefetchBlocks = 2;

// q . k over d floats (d a multiple of lanes), two chains of FMAs so they overlap.
[[gnu::always_inline]] inline float dot(const float* q, const float* k, std::int64_t d) {
    vf a{}, b{};
    std::int64_t c = 0;
    for (; c + 2 * lanes <= d; c += 2 * lanes) {
        a = fma(load(q + c), load(k + c), a);
        b = fma(load(q + c + lanes), load(k + c + lanes), b);
    }
    for (; c < d; c += lanes) a = fma(load(q + c), load(k + c), a);
    return hsum(a + b);
}

// o[0, V lanes) += the sum over b < nb of w[b] * rows[b][at, at + V lanes), o held in registers
// across the rows.
template <int V>
[[gnu::always_inline]] inline void accumulate_rows(float* o, const float* const* rows, std::int64_t at, const float* w,
                                                   std::int64_t nb) {
    vf acc[V];
#pragma GCC unroll 8
    for (int i = 0; i < V; ++i) acc[i] = load(o + i * lanes);
    for (std::int64_t b = 0; b < nb; ++b) {
        const vf wb = splat(w[b]);
#pragma GCC unroll 8
        for (int i = 0; i < V; ++i) acc[i] = fma(wb, load(rows[b] + at + i * lanes), acc[i]);
    }
#pragma GCC unroll 8
    for (int i = 0; i < V; ++i) store(o + i * lanes, acc[i]);
}

// The query qs (d floats, already times scale * log2(e)) attended to the n keys key(0..n-1)
// (row indices into kh and vh, [keys][d]; d a multiple of 4 lanes, as head_dim 64 and 128 are):
// o (d floats) gets the output normalised by its own sum; returns its log-sum-exp in base 2
// (-inf, o zero, when n = 0).
template <class Key>
float attend_keys(const float* qs, const float* kh, const float* vh, std::int64_t d, std::int64_t n, Key key,
                  float* o) {
    const vf neg_inf = splat(-std::numeric_limits<float>::infinity());
    std::fill(o, o + d, 0.0f);
    float m = -std::numeric_limits<float>::infinity(), l = 0.0f;
    alignas(64) float s[kDecodeBlock];
    // Rows are requested kPrefetchBlocks blocks ahead of their use: topk_sparse's keys are
    // scattered rows, which the hardware prefetcher does not foresee.
    const auto prefetch = [&](std::int64_t from, std::int64_t to) {
        for (std::int64_t b = from; b < std::min(n, to); ++b)
            for (std::int64_t c = 0; c < d; c += 64 / static_cast<std::int64_t>(sizeof(float))) {
                __builtin_prefetch(kh + key(b) * d + c);
                __builtin_prefetch(vh + key(b) * d + c);
            }
    };
    prefetch(0, kPrefetchBlocks * kDecodeBlock);
    for (std::int64_t i0 = 0; i0 < n; i0 += kDecodeBlock) {
        const std::int64_t nb = std::min<std::int64_t>(kDecodeBlock, n - i0);
        prefetch(i0 + kPrefetchBlocks * kDecodeBlock, i0 + (kPrefetchBlocks + 1) * kDecodeBlock);
        for (std::int64_t b = 0; b < nb; ++b) s[b] = dot(qs, kh + key(i0 + b) * d, d);
        for (std::int64_t b = nb; b < kDecodeBlock; ++b) s[b] = -std::numeric_limits<float>::infinity();
        vf mx = neg_inf;
        for (int b = 0; b < kDecodeBlock; b += lanes) mx = vmax(mx, load(s + b));
        const float m_new = std::max(m, hmax(mx));   // finite: nb >= 1
        const float alpha = exp2_scalar(m - m_new);  // 0 on the first block
        vf sum{};
        for (int b = 0; b < kDecodeBlock; b += lanes) {
            const vf e = vexp2(load(s + b) - m_new);
            store(s + b, e);
            sum += e;
        }
        l = l * alpha + hsum(sum);
        m = m_new;
        if (alpha != 1.0f)
            for (std::int64_t c = 0; c < d; c += lanes) store(o + c, load(o + c) * alpha);
        const float* vrow[kDecodeBlock];
        for (std::int64_t b = 0; b < nb; ++b) vrow[b] = vh + key(i0 + b) * d;
        std::int64_t c = 0;
        for (; c + 8 * lanes <= d; c += 8 * lanes) accumulate_rows<8>(o + c, vrow, c, s, nb);
        for (; c < d; c += 4 * lanes) accumulate_rows<4>(o + c, vrow, c, s, nb);
    }
    if (n == 0) return -std::numeric_limits<float>::infinity();
    const vf inv = splat(1.0f / l);
    for (std::int64_t c = 0; c < d; c += lanes) store(o + c, load(o + c) * inv);
    return m + std::log2(l);
}

// The query of head bh times scale * log2(e), so scores come out ready for exp2.
void scaled_query(const AttentionProblem& p, const float* q, std::int64_t bh, float* qs) {
    const float f = p.scale() * kDecodeLog2e;
    for (std::int64_t c = 0; c < p.head_dim; ++c) qs[c] = q[p.q_offset(bh) + static_cast<std::size_t>(c)] * f;
}

}  // namespace

}  // namespace memwall
