// attention/naive: the textbook three passes over a materialised score tensor. Each pass is
// multi-threaded and its inner loop vectorised, with no blocking beyond the natural loops, so
// it is the honest baseline the flash variant is measured against.
#include <cmath>
#include <limits>

#include "kernels/attention/attention.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/kit/simd.hpp"

namespace memwall {

namespace {

// In place: s[0..n) = exp(s - max) / sum, s[n..len) = 0 (the masked keys).
void softmax_row(float* s, std::int64_t n, std::int64_t len) {
    using namespace kit::simd;
    constexpr float log2e = 1.4426950408889634f;
    float mx = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : mx)
    for (std::int64_t j = 0; j < n; ++j) mx = s[j] > mx ? s[j] : mx;

    float sum = 0;
    std::int64_t j = 0;
    vf acc{};
    for (; j + lanes <= n; j += lanes) {
        const vf e = vexp2((load(s + j) - mx) * log2e);
        store(s + j, e);
        acc += e;
    }
    sum = hsum(acc);
    for (; j < n; ++j) {
        s[j] = exp2_scalar((s[j] - mx) * log2e);
        sum += s[j];
    }
    const float inv = n > 0 ? 1.0f / sum : 0.0f;
#pragma omp simd
    for (std::int64_t c = 0; c < n; ++c) s[c] *= inv;
    for (std::int64_t c = n; c < len; ++c) s[c] = 0;
}

}  // namespace

template <>
void attention_naive<kit::kKernelIsa>(const AttentionProblem& p, const float* q, const float* k, const float* v,
                                      float* o, float* scores) {
    const std::int64_t bhs = p.heads_total();
    const std::int64_t sq = p.seq_q;
    const std::int64_t sk = p.seq_k;
    const std::int64_t d = p.head_dim;
    const float scale = p.scale();
    const float masked = -std::numeric_limits<float>::infinity();

    // Rows are dealt in chunks of 16, so causal rows (whose work grows with i) balance.
    // S = scale * Q K^T (masked keys -inf).
#pragma omp parallel for collapse(2) schedule(static, 16)
    for (std::int64_t bh = 0; bh < bhs; ++bh)
        for (std::int64_t i = 0; i < sq; ++i) {
            const float* qi = q + p.q_offset(bh) + i * d;
            const float* kh = k + p.kv_offset(bh);
            float* s = scores + (bh * sq + i) * sk;
            const std::int64_t n = p.visible_keys(i);
            for (std::int64_t j = 0; j < n; ++j) {
                const float* kj = kh + j * d;
                float dot = 0;
#pragma omp simd reduction(+ : dot)
                for (std::int64_t c = 0; c < d; ++c) dot += qi[c] * kj[c];
                s[j] = scale * dot;
            }
            for (std::int64_t j = n; j < sk; ++j) s[j] = masked;
        }

        // P = softmax(S), row by row, in place.
#pragma omp parallel for collapse(2) schedule(static, 16)
    for (std::int64_t bh = 0; bh < bhs; ++bh)
        for (std::int64_t i = 0; i < sq; ++i) softmax_row(scores + (bh * sq + i) * sk, p.visible_keys(i), sk);

            // O = P V.
#pragma omp parallel for collapse(2) schedule(static, 16)
    for (std::int64_t bh = 0; bh < bhs; ++bh)
        for (std::int64_t i = 0; i < sq; ++i) {
            const float* pi = scores + (bh * sq + i) * sk;
            const float* vh = v + p.kv_offset(bh);
            float* oi = o + p.q_offset(bh) + i * d;
#pragma omp simd
            for (std::int64_t c = 0; c < d; ++c) oi[c] = 0;
            const std::int64_t n = p.visible_keys(i);
            for (std::int64_t j = 0; j < n; ++j) {
                const float w = pi[j];
                const float* vj = vh + j * d;
#pragma omp simd
                for (std::int64_t c = 0; c < d; ++c) oi[c] += w * vj[c];
            }
        }
}

MEMWALL_KERNEL_END

}  // namespace memwall
