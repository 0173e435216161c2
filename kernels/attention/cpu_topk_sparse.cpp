// attention/topk_sparse on the CPU (Double Sparsity). Per head: approximate scores q[r] . label
// from the channel-major label cache (vectors over keys, r FMAs each), then a radix selection of
// the k largest: three histogram passes over the scores' ordered bits (11, 11 and 10 bits) find
// the k-th largest key and how many of its ties to take, and one pass collects the selected keys
// ascending (all above it, then its ties lowest key first: topk_select's rule). The scores of a
// head stay in L2 between the passes. Then the head's exact attention over the selected keys,
// gathering their rows of K and V. A head is one task: steps joined by barriers would leave the
// cores waiting on the slowest (on a shared machine, on a descheduled thread) three times a run.
#include "kernels/attention/decode.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/kit/simd.hpp"
#include "kernels/attention/cpu_decode_keys.hpp"

namespace memwall {

namespace {

// The score's bits as an unsigned key in the floats' order; +0.0 first, so -0.0 ties with it.
std::uint32_t ordered(float x) {
    const auto u = std::bit_cast<std::uint32_t>(x + 0.0f);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

void head_scores(const float* qh, const float* label, const std::int32_t* ch, std::int64_t r, std::int64_t n,
                 float* s) {
    std::array<float, 128> qr;  // the query's label channels (r <= head_dim <= 128)
    for (std::int64_t c = 0; c < r; ++c) qr[static_cast<std::size_t>(c)] = qh[ch[c]];
    std::int64_t j = 0;
    for (; j + lanes <= n; j += lanes) {
        vf acc{};
        for (std::int64_t c = 0; c < r; ++c)
            acc = fma(splat(qr[static_cast<std::size_t>(c)]), load(label + c * n + j), acc);
        store(s + j, acc);
    }
    for (; j < n; ++j) {
        float acc = 0.0f;
        for (std::int64_t c = 0; c < r; ++c) acc = std::fma(qr[static_cast<std::size_t>(c)], label[c * n + j], acc);
        s[j] = acc;
    }
}

// The k largest of s[0..n) by topk_select's rule, ascending, into out.
void select_keys(const float* s, std::int64_t n, std::int64_t k, std::int32_t* out) {
    constexpr int shifts[3] = {21, 10, 0}, widths[3] = {11, 11, 10};
    std::uint32_t prefix = 0, mask = 0;
    std::int64_t need = k;  // of the keys matching prefix, how many are still to take
    std::array<std::int64_t, 1 << 11> hist;
    for (int pass = 0; pass < 3; ++pass) {
        const int shift = shifts[pass];
        const std::uint32_t bins = 1u << widths[pass];
        std::fill(hist.begin(), hist.begin() + bins, 0);
        for (std::int64_t j = 0; j < n; ++j) {
            const std::uint32_t u = ordered(s[j]);
            if ((u & mask) == prefix) ++hist[(u >> shift) & (bins - 1)];
        }
        std::uint32_t b = bins - 1;
        while (hist[b] < need) need -= hist[b--];  // the bins above b are taken whole
        prefix |= b << shift;
        mask |= (bins - 1) << shift;
    }
    // prefix is now the k-th largest key; `need` of its ties are taken.
    std::int64_t at = 0;
    for (std::int64_t j = 0; j < n; ++j) {
        const std::uint32_t u = ordered(s[j]);
        if (u > prefix || (u == prefix && need-- > 0)) out[at++] = static_cast<std::int32_t>(j);
    }
}

}  // namespace

template <>
void attention_topk_sparse<kit::kernel_isa>(const AttentionProblem& p, const TopkSizes& t, const float* q,
                                            const float* k, const float* v, const float* label,
                                            const std::int32_t* channels, float* out, std::int32_t* selected) {
    const std::int64_t bhs = p.heads_total(), d = p.head_dim, n = p.seq_k, r = t.channels, kk = t.tokens;
    float* scores = out + p.q_size();
#pragma omp parallel
    {
        std::vector<float> qs(static_cast<std::size_t>(d));
#pragma omp for schedule(dynamic)
        for (std::int64_t bh = 0; bh < bhs; ++bh) {
            head_scores(q + p.q_offset(bh), label + bh * r * n, channels + bh * r, r, n, scores + bh * n);
            const std::int32_t* keys = selected + bh * kk;
            select_keys(scores + bh * n, n, kk, selected + bh * kk);
            scaled_query(p, q, bh, qs.data());
            attend_keys(
                qs.data(), k + p.kv_offset(bh), v + p.kv_offset(bh), d, kk,
                [keys](std::int64_t i) { return static_cast<std::int64_t>(keys[i]); }, out + p.q_offset(bh));
        }
    }
}

MEMWALL_KERNEL_END

}  // namespace memwall
