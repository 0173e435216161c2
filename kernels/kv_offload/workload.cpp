// The kv_offload workload: seeded queries and pages, the scratch file, the float64 reference of
// every step and the check.
#include <algorithm>
#include <cmath>
#include <random>

#include "kernels/kv_offload/kv_offload.hpp"
#include "kernels/kit/output_check.hpp"

namespace memwall {

void kv_attention_reference(const double* q, const double* k, const double* v, std::int64_t n, std::int64_t d,
                            double* out) {
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    std::vector<double> s(static_cast<std::size_t>(n));
    double max = -INFINITY;
    for (std::int64_t j = 0; j < n; ++j) {
        double dot = 0;
        for (std::int64_t c = 0; c < d; ++c) dot += q[c] * k[j * d + c];
        s[static_cast<std::size_t>(j)] = scale * dot;
        max = std::max(max, s[static_cast<std::size_t>(j)]);
    }
    double sum = 0;
    for (double& x : s) sum += x = std::exp(x - max);
    std::fill(out, out + d, 0.0);
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t c = 0; c < d; ++c) out[c] += s[static_cast<std::size_t>(j)] / sum * v[j * d + c];
}

KvWorkload::KvWorkload(const KvProblem& p, std::uint64_t seed, const std::filesystem::path& scratch_dir) : problem_(p) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<float> magnitude(0.25f, 1.0f);
    std::bernoulli_distribution negative(0.5);
    auto fill = [&](kit::PlacedBuffer& b, std::size_t n) {
        b.resize(n);
        for (float& x : b) x = negative(gen) ? -magnitude(gen) : magnitude(gen);
    };
    fill(kv_, static_cast<std::size_t>(p.pages()) * p.page_floats());
    fill(q_, p.out_floats());
    selections_ = p.topk ? kv_topk_selections(p, kv_.data(), q_.data()) : kv_selections(p, seed);
    file_ = std::make_unique<ScratchFile>(scratch_dir, kv_.data(), p.file_bytes());

    const std::int64_t d = p.head_dim, t = p.page_tokens;
    const std::int64_t n = p.selected() * t;
    std::vector<double> q(static_cast<std::size_t>(d)), k(static_cast<std::size_t>(n * d)),
        v(static_cast<std::size_t>(n * d));
    reference_.resize(p.out_floats());
    for (std::int64_t s = 0; s < p.steps; ++s)
        for (std::int64_t h = 0; h < p.heads; ++h) {
            const auto& pages = selections_[static_cast<std::size_t>(s)];
            for (std::size_t i = 0; i < pages.size(); ++i) {
                const float* page = kv() + static_cast<std::size_t>(pages[i]) * p.page_floats();
                const auto at = static_cast<std::ptrdiff_t>(i) * t * d;
                std::copy_n(page + p.k_offset(h), t * d, k.begin() + at);
                std::copy_n(page + p.v_offset(h), t * d, v.begin() + at);
            }
            std::copy_n(this->q(s, h), d, q.begin());
            kv_attention_reference(q.data(), k.data(), v.data(), n, d, reference_.data() + (s * p.heads + h) * d);
        }
}

double KvWorkload::tolerance() const {
    const double n = static_cast<double>(problem_.selected() * problem_.page_tokens);
    return 16.0 * std::sqrt(static_cast<double>(problem_.head_dim) + n) * 0x1p-24;
}

Check KvWorkload::check(const float* out) const {
    const std::size_t size = reference_.size();
    if (const std::size_t i = kit::first_not_finite(size, [&](std::size_t j) { return out[j]; }); i < size) {
        const auto per_step = static_cast<std::size_t>(problem_.heads * problem_.head_dim);
        return kit::not_finite("output element " + std::to_string(i) + " (step " + std::to_string(i / per_step) +
                                   ", head " +
                                   std::to_string(i % per_step / static_cast<std::size_t>(problem_.head_dim)) + ")",
                               out[i], tolerance());
    }
    kit::RelativeL2 l2;
    for (std::size_t i = 0; i < size; ++i) l2.add(out[i], reference_[i]);
    return l2.result(tolerance());
}

}  // namespace memwall
