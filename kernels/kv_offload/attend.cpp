// The attention every CPU variant runs once its pages are in reach: one query per head over the
// selected pages' tokens, online softmax in fp32.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/kv_offload/kv_offload.hpp"

namespace memwall {

void kv_attend_step(const KvProblem& p, const KvWorkload& w, std::int64_t step, const float* const* pages,
                    float* out) {
    const std::int64_t d = p.head_dim, t = p.page_tokens, n = p.selected();
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
#pragma omp parallel for schedule(static)
    for (std::int64_t h = 0; h < p.heads; ++h) {
        const float* q = w.q(step, h);
        std::vector<float> acc(static_cast<std::size_t>(d), 0.0f);
        float max = -INFINITY, sum = 0.0f;
        for (std::int64_t i = 0; i < n; ++i) {
            const float* k = pages[i] + p.k_offset(h);
            const float* v = pages[i] + p.v_offset(h);
            for (std::int64_t j = 0; j < t; ++j) {
                float dot = 0.0f;
                for (std::int64_t c = 0; c < d; ++c) dot += q[c] * k[j * d + c];
                const float s = scale * dot;
                if (s > max) {  // rescale what was summed under the old maximum
                    const float r = std::exp(max - s);
                    sum *= r;
                    for (float& a : acc) a *= r;
                    max = s;
                }
                const float e = std::exp(s - max);
                sum += e;
                for (std::int64_t c = 0; c < d; ++c) acc[static_cast<std::size_t>(c)] += e * v[j * d + c];
            }
        }
        float* o = out + h * d;
        for (std::int64_t c = 0; c < d; ++c) o[c] = acc[static_cast<std::size_t>(c)] / sum;
    }
}

}  // namespace memwall
