// The attention every CPU variant runs once its pages are in reach: one query per head over the
// selected pages' tokens, online softmax in fp32. Either over a whole step (heads in parallel) or
// page by page as pages arrive (StepAttention, on the caller's thread).
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/kit/simd.hpp"
#include "kernels/kv_offload/cpu_kernels.hpp"
#include "kernels/kv_offload/kv_offload.hpp"

namespace memwall {

namespace {

using namespace kit::simd;

// q·k over d floats. Vectors when d is whole vectors (two accumulators, so the FMAs' latency is
// not the bound); a scalar chain of d dependent adds otherwise.
float dot(const float* q, const float* k, std::int64_t d) {
    if (d % lanes != 0) {
        float s = 0.0f;
        for (std::int64_t c = 0; c < d; ++c) s += q[c] * k[c];
        return s;
    }
    vf a0{}, a1{};
    std::int64_t c = 0;
    for (; c + 2 * lanes <= d; c += 2 * lanes) {
        a0 = fma(load(q + c), load(k + c), a0);
        a1 = fma(load(q + c + lanes), load(k + c + lanes), a1);
    }
    if (c < d) a0 = fma(load(q + c), load(k + c), a0);
    return hsum(a0 + a1);
}

// acc = acc * r + e * v over d floats (r = 1: no rescale).
void scale_add(float* acc, float r, float e, const float* v, std::int64_t d) {
    std::int64_t c = 0;
    if (d % lanes == 0) {
        const vf rv = splat(r), ev = splat(e);
        for (; c < d; c += lanes) store(acc + c, fma(ev, load(v + c), load(acc + c) * rv));
        return;
    }
    for (; c < d; ++c) acc[c] = acc[c] * r + e * v[c];
}

// Folds `t` tokens (keys at k, values at v, d floats each) into one query's running softmax:
// its maximum score, the sum of exp(score - max), and acc = that sum's weighted values.
void fold(const float* q, const float* k, const float* v, std::int64_t t, std::int64_t d, float scale, float& max,
          float& sum, float* acc) {
    for (std::int64_t j = 0; j < t; ++j) {
        const float s = scale * dot(q, k + j * d, d);
        float r = 1.0f;
        if (s > max) {  // rescale what was summed under the old maximum
            r = std::exp(max - s);
            sum *= r;
            max = s;
        }
        const float e = std::exp(s - max);
        sum += e;
        scale_add(acc, r, e, v + j * d, d);
    }
}

float scale_of(const KvProblem& p) { return 1.0f / std::sqrt(static_cast<float>(p.head_dim)); }

}  // namespace

void kv_attend_step(const KvProblem& p, const KvWorkload& w, std::int64_t step, const float* const* pages, float* out) {
    const std::int64_t d = p.head_dim, n = p.selected();
    const float scale = scale_of(p);
#pragma omp parallel for schedule(static)
    for (std::int64_t h = 0; h < p.heads; ++h) {
        std::vector<float> acc(static_cast<std::size_t>(d), 0.0f);
        float max = -INFINITY, sum = 0.0f;
        for (std::int64_t i = 0; i < n; ++i)
            fold(w.q(step, h), pages[i] + p.k_offset(h), pages[i] + p.v_offset(h), p.page_tokens, d, scale, max, sum,
                 acc.data());
        float* o = out + h * d;
        for (std::int64_t c = 0; c < d; ++c) o[c] = acc[static_cast<std::size_t>(c)] / sum;
    }
}

namespace kv_cpu {

StepAttention::StepAttention(const KvWorkload& w)
    : w_(w),
      max_(static_cast<std::size_t>(w.problem().heads)),
      sum_(max_.size()),
      acc_(max_.size() * static_cast<std::size_t>(w.problem().head_dim)) {}

void StepAttention::begin(std::int64_t step) {
    step_ = step;
    std::fill(max_.begin(), max_.end(), -INFINITY);
    std::fill(sum_.begin(), sum_.end(), 0.0f);
    std::fill(acc_.begin(), acc_.end(), 0.0f);
}

void StepAttention::add(const float* page) {
    const KvProblem& p = w_.problem();
    const float scale = scale_of(p);
    for (std::int64_t h = 0; h < p.heads; ++h) {
        const auto hh = static_cast<std::size_t>(h);
        fold(w_.q(step_, h), page + p.k_offset(h), page + p.v_offset(h), p.page_tokens, p.head_dim, scale, max_[hh],
             sum_[hh], acc_.data() + hh * static_cast<std::size_t>(p.head_dim));
    }
}

void StepAttention::finish(float* out) const {
    const std::size_t d = static_cast<std::size_t>(w_.problem().head_dim);
    for (std::size_t h = 0; h < max_.size(); ++h)
        for (std::size_t c = 0; c < d; ++c) out[h * d + c] = acc_[h * d + c] / sum_[h];
}

}  // namespace kv_cpu

}  // namespace memwall
