// attention/decode_splitkv on the CPU: Flash-Decoding for seq_q = 1. The (head, split) tasks
// each stream their key range of K and V once (the whole kernel is a read of K and V), so with
// more tasks than threads every core streams; a combine per head merges the partial outputs.
#include "kernels/attention/decode.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/kit/simd.hpp"
#include "kernels/attention/cpu_decode_keys.hpp"

namespace memwall {

namespace {

// o (d floats) = the splits' outputs weighted by 2^(lse_s - M) / sum of those, M the largest
// log-sum-exp; every split without keys has weight 0 (and one of them has keys).
void combine_splits(const float* part_o, const float* part_lse, int splits, std::int64_t d, float* o) {
    float mx = -std::numeric_limits<float>::infinity();
    for (int s = 0; s < splits; ++s) mx = std::max(mx, part_lse[s]);
    std::fill(o, o + d, 0.0f);
    float weights = 0.0f;
    for (int s = 0; s < splits; ++s) {
        const float w = exp2_scalar(part_lse[s] - mx);
        weights += w;
        const vf wv = splat(w);
        for (std::int64_t c = 0; c < d; c += lanes) store(o + c, fma(wv, load(part_o + s * d + c), load(o + c)));
    }
    const vf inv = splat(1.0f / weights);
    for (std::int64_t c = 0; c < d; c += lanes) store(o + c, load(o + c) * inv);
}

}  // namespace

template <>
void attention_decode_splitkv<kit::kKernelIsa>(const AttentionProblem& p, int splits, const float* q, const float* k,
                                               const float* v, float* o, float* work) {
    const std::int64_t bhs = p.heads_total(), d = p.head_dim, n = p.seq_k;
    const std::int64_t chunk = (n + splits - 1) / splits;
    float* part_o = work;
    float* part_lse = work + bhs * splits * d;
#pragma omp parallel
    {
        std::vector<float> qs(static_cast<std::size_t>(d));
#pragma omp for collapse(2) schedule(static)
        for (std::int64_t bh = 0; bh < bhs; ++bh)
            for (std::int64_t s = 0; s < splits; ++s) {
                const std::int64_t begin = std::min(n, s * chunk), end = std::min(n, begin + chunk);
                scaled_query(p, q, bh, qs.data());
                const float* kh = k + p.kv_offset(bh) + static_cast<std::size_t>(begin * d);
                const float* vh = v + p.kv_offset(bh) + static_cast<std::size_t>(begin * d);
                const std::int64_t at = bh * splits + s;
                part_lse[at] = attend_keys(
                    qs.data(), kh, vh, d, end - begin, [](std::int64_t i) { return i; }, part_o + at * d);
            }
#pragma omp for schedule(static)
        for (std::int64_t bh = 0; bh < bhs; ++bh)
            combine_splits(part_o + bh * splits * d, part_lse + bh * splits, splits, d, o + p.q_offset(bh));
    }
}

MEMWALL_KERNEL_END

}  // namespace memwall
