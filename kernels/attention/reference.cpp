// The attention workload: seeded inputs, the float64 reference of selected rows, the check.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>

#include "cuda_emu/bfloat16.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/kit/output_check.hpp"

namespace memwall {

namespace {

// Rounded to bf16 for a bf16 problem (never to zero: bf16 has fp32's exponent range).
void fill_uniform(kit::PlacedBuffer& x, std::size_t n, std::mt19937_64& gen, AttentionDtype dtype) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    x.resize(n);
    for (float& e : x) {
        do e = dist(gen);
        while (e == 0.0f);
        if (dtype == AttentionDtype::bf16) e = __bfloat162float(__float2bfloat16_rn(e));
    }
}

// Scales each head's outlier channels of Q and K, drawn apart from the inputs' stream so the
// values of a problem without outliers stay those of every other seed's.
void scale_outliers(const AttentionProblem& p, std::uint64_t seed, float* q, float* k) {
    std::mt19937_64 gen(seed ^ 0x6f75746c69657273ULL);
    const std::int64_t d = p.head_dim;
    std::vector<std::int64_t> channels(static_cast<std::size_t>(d));
    for (std::int64_t bh = 0; bh < p.heads_total(); ++bh) {
        std::iota(channels.begin(), channels.end(), 0);
        std::shuffle(channels.begin(), channels.end(), gen);
        for (std::int64_t o = 0; o < p.outliers; ++o) {
            const std::int64_t c = channels[static_cast<std::size_t>(o)];
            for (std::int64_t i = 0; i < p.seq_q; ++i)
                q[p.q_offset(bh) + static_cast<std::size_t>(i * d + c)] *= p.kOutlierScale;
            for (std::int64_t j = 0; j < p.seq_k; ++j)
                k[p.kv_offset(bh) + static_cast<std::size_t>(j * d + c)] *= p.kOutlierScale;
        }
    }
}

}  // namespace

std::vector<std::int64_t> attention_reference_rows(const AttentionProblem& p, std::uint64_t seed,
                                                   std::int64_t full_reference_limit) {
    std::vector<std::int64_t> rows;
    const bool all = p.heads_total() * p.seq_q * p.seq_k <= full_reference_limit ||
                     p.seq_q <= AttentionWorkload::kSampledRowsPerHead;
    if (all) {
        rows.resize(static_cast<std::size_t>(p.heads_total() * p.seq_q));
        for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = static_cast<std::int64_t>(r);
        return rows;
    }
    // Sampled: the first and last rows, the causal edge (the last row that sees no key and the
    // first two that see one or two), then random rows; the same rows in every head, so a
    // seed names one check.
    std::set<std::int64_t> pick{0, p.seq_q - 1};
    if (p.causal) {
        const std::int64_t edge = p.seq_q - p.seq_k;  // the first row that sees key 0
        for (std::int64_t i : {edge - 1, edge, edge + 1})
            if (i >= 0 && i < p.seq_q) pick.insert(i);
    }
    std::mt19937_64 gen(seed ^ 0x9e3779b97f4a7c15ULL);
    std::uniform_int_distribution<std::int64_t> row(0, p.seq_q - 1);
    while (static_cast<std::int64_t>(pick.size()) < AttentionWorkload::kSampledRowsPerHead) pick.insert(row(gen));
    for (std::int64_t bh = 0; bh < p.heads_total(); ++bh)
        for (std::int64_t i : pick) rows.push_back(bh * p.seq_q + i);
    return rows;
}

void attention_reference_row(const AttentionProblem& p, const float* q, const float* k, const float* v, std::int64_t bh,
                             std::int64_t i, double* out) {
    const std::int64_t d = p.head_dim;
    const std::int64_t n = p.visible_keys(i);
    const float* qi = q + p.q_offset(bh) + static_cast<std::size_t>(i * d);
    const float* kh = k + p.kv_offset(bh);
    const float* vh = v + p.kv_offset(bh);
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));

    // Keys of masked blocks score -inf: their weights are exactly 0.
    std::vector<double> s(static_cast<std::size_t>(n), -std::numeric_limits<double>::infinity());
    double mx = -std::numeric_limits<double>::infinity();
    for (std::int64_t j = 0; j < n; ++j) {
        if (!p.key_kept(i, j)) continue;
        const float* kj = kh + j * d;
        double dot = 0;
#pragma omp simd reduction(+ : dot)
        for (std::int64_t c = 0; c < d; ++c) dot += static_cast<double>(qi[c]) * kj[c];
        s[static_cast<std::size_t>(j)] = dot * scale;
        mx = std::max(mx, dot * scale);
    }
    double sum = 0;
    for (double& e : s) {
        e = std::isinf(e) ? 0.0 : std::exp(e - mx);  // a masked key's weight is 0
        sum += e;
    }
    for (std::int64_t c = 0; c < d; ++c) out[c] = 0;
    for (std::int64_t j = 0; j < n; ++j) {
        const double w = s[static_cast<std::size_t>(j)];
        const float* vj = vh + j * d;
#pragma omp simd
        for (std::int64_t c = 0; c < d; ++c) out[c] += w * vj[c];
    }
    if (sum > 0)
        for (std::int64_t c = 0; c < d; ++c) out[c] /= sum;
}

AttentionWorkload::AttentionWorkload(const AttentionProblem& p, std::uint64_t seed, std::int64_t full_reference_limit)
    : problem_(p) {
    p.validate();
    problem_.mask.seed = static_cast<std::uint32_t>(seed ^ (seed >> 32));
    std::mt19937_64 gen(seed);
    fill_uniform(q_, p.q_size(), gen, p.dtype);
    fill_uniform(k_, p.kv_size(), gen, p.dtype);
    fill_uniform(v_, p.kv_size(), gen, p.dtype);
    if (p.outliers > 0) scale_outliers(p, seed, q_.data(), k_.data());
    rows_ = attention_reference_rows(p, seed, full_reference_limit);

    const std::int64_t n = static_cast<std::int64_t>(rows_.size());
    const std::int64_t d = p.head_dim;
    reference_.resize(static_cast<std::size_t>(n * d));
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < n; ++r) {
        const std::int64_t row = rows_[static_cast<std::size_t>(r)];
        attention_reference_row(problem_, q_.data(), k_.data(), v_.data(), row / p.seq_q, row % p.seq_q,
                                reference_.data() + r * d);
    }
}

Check AttentionWorkload::check(const float* o) const {
    const AttentionProblem& p = problem_;
    const std::size_t size = p.q_size();
    if (const std::size_t e = kit::first_not_finite(size, [&](std::size_t j) { return o[j]; }); e < size) {
        const auto d = static_cast<std::size_t>(p.head_dim);
        const std::size_t row = e / d;
        const auto sq = static_cast<std::size_t>(p.seq_q);
        const auto h = static_cast<std::size_t>(p.heads);
        return kit::not_finite("O[b=" + std::to_string(row / sq / h) + ", h=" + std::to_string(row / sq % h) +
                                   ", i=" + std::to_string(row % sq) + ", d=" + std::to_string(e % d) + "]",
                               o[e], tolerance());
    }
    // Sampled rows (every row of a small problem); every checked row fully masked leaves a zero
    // reference, and the error is then absolute.
    kit::RelativeL2 l2;
    const std::int64_t d = p.head_dim;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        const float* out = o + rows_[r] * d;
        const double* ref = reference_.data() + static_cast<std::int64_t>(r) * d;
        for (std::int64_t x = 0; x < d; ++x) l2.add(out[x], ref[x]);
    }
    return l2.result(tolerance(), "over " + std::to_string(rows_.size()) + " reference rows");
}

}  // namespace memwall
