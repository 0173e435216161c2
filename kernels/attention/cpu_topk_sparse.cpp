// attention/topk_sparse on the CPU (Double Sparsity). Per head: approximate scores q[r] . label
// from the channel-major label cache (vectors over keys, r FMAs each), then a radix selection of
// the k largest: histograms of the scores' ordered bits (11, 11 and 10 bits; the first taken as
// the scores are written, the others over the candidates the first leaves) find the k-th largest
// key and how many of its ties to take, and one pass collects the selected keys ascending (all
// above it, then its ties lowest key first: topk_select's rule). The scores of a head stay in L2
// between the passes. Then the head's exact attention over the selected keys,
// gathering their rows of K and V. A head is one task: steps joined by barriers would leave the
// cores waiting on the slowest (on a shared machine, on a descheduled thread) three times a run.
#include "kernels/attention/decode.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/kit/simd.hpp"
#include "kernels/attention/cpu_decode_keys.hpp"

namespace memwall {

namespace {

using vu = std::uint32_t __attribute__((vector_size(lanes * sizeof(float))));

// The scores' bits as unsigned keys in the floats' order; +0.0 first, so -0.0 ties with it.
vu ordered(vf x) {
    const vi u = __builtin_bit_cast(vi, x + 0.0f);
    return __builtin_bit_cast(vu, u ^ ((u >> 31) | std::numeric_limits<std::int32_t>::min()));
}
std::uint32_t ordered(float x) { return ordered(splat(x))[0]; }

// The top 11 of a key's 32 bits: the first pass's histogram bin.
constexpr int kTopShift = 21;
constexpr std::size_t kBins = std::size_t{1} << 11;
// Keys of one vector are counted in `kBanks` histograms, lane i in bank i % kBanks: increments of
// one bin (scores cluster in a few) would otherwise wait on each other through memory.
constexpr std::size_t kBanks = 4;
using Histogram = std::array<std::int32_t, kBanks * kBins>;

// Head's scores into s, and in hist[0, kBins) the histogram of their keys' top bits, taken as they
// are written.
void head_scores(const float* qh, const float* label, const std::int32_t* ch, std::int64_t r, std::int64_t n, float* s,
                 Histogram& hist) {
    std::array<float, 128> qr;  // the query's label channels (r <= head_dim <= 128)
    for (std::int64_t c = 0; c < r; ++c) qr[static_cast<std::size_t>(c)] = qh[ch[c]];
    hist.fill(0);
    std::int64_t j = 0;
    for (; j + lanes <= n; j += lanes) {
        vf acc{};
        const bool ahead = j + 256 < n;  // no pointer past a row's end
        for (std::int64_t c = 0; c < r; ++c) {
            // The r rows are streams 4n bytes apart: the hardware prefetcher follows fewer.
            if (ahead) __builtin_prefetch(label + c * n + j + 256);
            acc = fma(splat(qr[static_cast<std::size_t>(c)]), load(label + c * n + j), acc);
        }
        store(s + j, acc);
        const vu bin = ordered(acc) >> kTopShift;
        for (int i = 0; i < lanes; ++i) ++hist[i % kBanks * kBins + bin[i]];
    }
    for (; j < n; ++j) {
        float acc = 0.0f;
        for (std::int64_t c = 0; c < r; ++c) acc = std::fma(qr[static_cast<std::size_t>(c)], label[c * n + j], acc);
        s[j] = acc;
        ++hist[ordered(acc) >> kTopShift];
    }
    for (std::size_t b = 1; b < kBanks; ++b)
        for (std::size_t i = 0; i < kBins; ++i) hist[i] += hist[b * kBins + i];
}

// Calls f(j) for every key j of s[0..n) whose lanes `match` (a vector's keys to a mask) marks,
// ascending.
template <class Match, class F>
void for_matching(const float* s, std::int64_t n, Match match, F f) {
    std::int64_t j = 0;
    for (; j + lanes <= n; j += lanes)
        for (unsigned bits = mask_bits(match(ordered(load(s + j)))); bits; bits &= bits - 1)
            f(j + std::countr_zero(bits));
    for (; j < n; ++j)
        if (match(ordered(splat(s[j])))[0]) f(j);
}

// The k largest of s[0..n) by topk_select's rule, ascending, into out, given the histogram of
// the keys' top bits. The bin holding the k-th largest key gives the candidates (one scan), whose
// next 11 and last 10 bits are histogrammed alone; a last scan collects the keys.
void select_keys(const float* s, std::int64_t n, std::int64_t k, Histogram& hist, std::int32_t* candidates,
                 std::int32_t* out) {
    std::int64_t need = k;  // of the keys matching prefix, how many are still to take
    // The bin holding the need-th largest key of the histogram's `width` bins; those above it are taken whole.
    const auto bin_of = [&](std::uint32_t width) {
        std::uint32_t b = width - 1;
        while (hist[b] < need) need -= hist[b--];
        return b;
    };
    std::uint32_t prefix = bin_of(kBins) << kTopShift, mask = 0x7ffu << kTopShift;
    std::int64_t m = 0;
    for_matching(
        s, n, [&](vu u) { return (u & mask) == prefix; },
        [&](std::int64_t j) { candidates[m++] = static_cast<std::int32_t>(j); });
    for (const auto& [shift, width] : {std::pair{10, 11}, std::pair{0, 10}}) {
        const std::uint32_t w = 1u << width;
        std::fill(hist.begin(), hist.begin() + w, 0);
        for (std::int64_t c = 0; c < m; ++c) {
            const std::uint32_t u = ordered(s[candidates[c]]);
            if ((u & mask) == prefix) ++hist[(u >> shift) & (w - 1)];
        }
        prefix |= bin_of(w) << shift;
        mask |= (w - 1) << shift;
    }
    // prefix is now the k-th largest key; `need` of its ties are taken.
    std::int64_t at = 0;
    for_matching(
        s, n, [&](vu u) { return u >= prefix; },
        [&](std::int64_t j) {
            if (ordered(s[j]) > prefix || need-- > 0) out[at++] = static_cast<std::int32_t>(j);
        });
}

}  // namespace

template <>
void attention_topk_sparse<kit::kKernelIsa>(const AttentionProblem& p, const TopkSizes& t, const float* q,
                                            const float* k, const float* v, const float* label,
                                            const std::int32_t* channels, float* out, std::int32_t* selected) {
    const std::int64_t bhs = p.heads_total(), d = p.head_dim, n = p.seq_k, r = t.channels, kk = t.tokens;
    float* scores = out + p.q_size();
#pragma omp parallel
    {
        std::vector<float> qs(static_cast<std::size_t>(d));
        std::vector<std::int32_t> candidates(static_cast<std::size_t>(n));
        Histogram hist;
#pragma omp for schedule(dynamic)
        for (std::int64_t bh = 0; bh < bhs; ++bh) {
            head_scores(q + p.q_offset(bh), label + bh * r * n, channels + bh * r, r, n, scores + bh * n, hist);
            const std::int32_t* keys = selected + bh * kk;
            select_keys(scores + bh * n, n, kk, hist, candidates.data(), selected + bh * kk);
            scaled_query(p, q, bh, qs.data());
            attend_keys(
                qs.data(), k + p.kv_offset(bh), v + p.kv_offset(bh), d, kk,
                [keys](std::int64_t i) { return static_cast<std::int64_t>(keys[i]); }, out + p.q_offset(bh));
        }
    }
}

MEMWALL_KERNEL_END

}  // namespace memwall
