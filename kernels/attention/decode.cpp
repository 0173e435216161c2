// The decode variants apart from their CPU kernels (cpu_decode_splitkv.cpp, cpu_topk_sparse.cpp):
// Double Sparsity's calibration and label cache, the selection rule, the check, the workspaces,
// the byte models, and the calls to the active ISA's kernels.
#include "kernels/attention/decode.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "kernels/kit/output_check.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

std::size_t decode_splitkv_workspace_floats(const AttentionProblem& p, int splits) {
    return static_cast<std::size_t>(p.heads_total() * splits * (p.head_dim + 1));
}

void attention_decode_splitkv(const AttentionProblem& p, int splits, const float* q, const float* k, const float* v,
                              float* o, float* work) {
    if (active_isa() == Isa::avx512)
        attention_decode_splitkv<Isa::avx512>(p, splits, q, k, v, o, work);
    else
        attention_decode_splitkv<Isa::avx2>(p, splits, q, k, v, o, work);
}

std::vector<Counter> decode_splitkv_model(const AttentionProblem& p, int splits, const MemoryHierarchy& mh) {
    const double partials = 4.0 * static_cast<double>(decode_splitkv_workspace_floats(p, splits));
    const double compulsory = attention_compulsory_bytes(p);
    return byte_model(attention_flops(p), compulsory, partials, mh,
                      {{std::numeric_limits<double>::infinity(), compulsory + 2 * partials}});
}

std::int64_t topk_tokens(std::int64_t seq_k, double sparsity) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(sparsity * static_cast<double>(seq_k))));
}

void validate_decode_axes(const Params& point) {
    if (point.has("sparsity")) {
        const double sparsity = point.real("sparsity");
        if (!(sparsity > 0.0 && sparsity <= 1.0))
            throw UsageError(
                "attention/topk_sparse: sparsity must be in (0, 1] (it attends to k = ceil(sparsity * seq_k) of "
                "seq_k keys), got " +
                std::to_string(sparsity));
    }
    if (point.has("label_channels")) {
        const std::int64_t r = point.integer("label_channels"), d = point.integer("head_dim");
        if (r < 1 || r > d)
            throw UsageError("attention/topk_sparse: label_channels must be 1 to head_dim (" + std::to_string(d) +
                             "), got " + std::to_string(r));
    }
}

TopkSizes TopkSizes::from(const Params& point) {
    validate_decode_axes(point);
    const AttentionProblem p = AttentionProblem::from(point);
    const double sparsity = point.real("sparsity");
    TopkSizes t;
    t.channels = point.integer("label_channels");
    t.tokens = topk_tokens(p.seq_k, sparsity);
    t.validate(p);
    return t;
}

void TopkSizes::validate(const AttentionProblem& p) const {
    if (channels < 1 || channels > p.head_dim)
        throw UsageError("attention/topk_sparse: label_channels must be 1 to head_dim (" + std::to_string(p.head_dim) +
                         "), got " + std::to_string(channels));
    if (tokens < 1 || tokens > p.seq_k)
        throw UsageError("attention/topk_sparse: k = " + std::to_string(tokens) + " keys must be 1 to seq_k (" +
                         std::to_string(p.seq_k) + ")");
    if (p.seq_q != 1) throw UsageError("attention/topk_sparse: seq_q must be 1 (decode)");
}

std::vector<std::int32_t> topk_calibrate(const AttentionProblem& p, const float* k, std::int64_t r) {
    const std::int64_t d = p.head_dim;
    std::vector<std::int32_t> out;
    out.reserve(static_cast<std::size_t>(p.heads_total() * r));
    std::vector<float> mass(static_cast<std::size_t>(d));
    for (std::int64_t bh = 0; bh < p.heads_total(); ++bh) {
        std::vector<double> sum(static_cast<std::size_t>(d), 0.0);
        const float* kh = k + p.kv_offset(bh);
        for (std::int64_t j = 0; j < p.seq_k; ++j)
            for (std::int64_t c = 0; c < d; ++c) sum[static_cast<std::size_t>(c)] += std::fabs(kh[j * d + c]);
        // The mean's order is the sum's; rounded to float, an exact tie stays a tie.
        for (std::int64_t c = 0; c < d; ++c)
            mass[static_cast<std::size_t>(c)] = static_cast<float>(sum[static_cast<std::size_t>(c)]);
        for (std::int64_t c : topk_select(mass.data(), d, r)) out.push_back(static_cast<std::int32_t>(c));
    }
    return out;
}

std::vector<float> topk_label_cache(const AttentionProblem& p, const float* k,
                                    const std::vector<std::int32_t>& channels, std::int64_t r) {
    const std::int64_t d = p.head_dim, n = p.seq_k;
    std::vector<float> label(static_cast<std::size_t>(p.heads_total() * r * n));
    for (std::int64_t bh = 0; bh < p.heads_total(); ++bh)
        for (std::int64_t c = 0; c < r; ++c) {
            const std::int64_t ch = channels[static_cast<std::size_t>(bh * r + c)];
            float* row = label.data() + (bh * r + c) * n;
            const float* kh = k + p.kv_offset(bh);
            for (std::int64_t j = 0; j < n; ++j) row[j] = kh[j * d + ch];
        }
    return label;
}

std::string topk_channels_detail(const std::vector<std::int32_t>& channels, std::int64_t r) {
    constexpr std::int64_t shown = 8;
    const auto heads = static_cast<std::int64_t>(channels.size()) / r;
    std::string out = "label channels:";
    for (std::int64_t h = 0; h < std::min(heads, shown); ++h) {
        out += " h" + std::to_string(h) + " {";
        for (std::int64_t c = 0; c < r; ++c)
            out += (c ? "," : "") + std::to_string(channels[static_cast<std::size_t>(h * r + c)]);
        out += "}";
    }
    if (heads > shown) out += " and " + std::to_string(heads - shown) + " more heads";
    return out;
}

std::vector<std::int64_t> topk_select(const float* scores, std::int64_t n, std::int64_t k) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
    std::iota(idx.begin(), idx.end(), 0);
    const auto before = [scores](std::int64_t a, std::int64_t b) {
        return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
    };
    std::nth_element(idx.begin(), idx.begin() + k - 1, idx.end(), before);
    idx.resize(static_cast<std::size_t>(k));
    std::sort(idx.begin(), idx.end());
    return idx;
}

namespace {

// Float64 attention of head bh's query over `keys`.
void reference_over(const AttentionProblem& p, const float* q, const float* k, const float* v, std::int64_t bh,
                    const std::vector<std::int64_t>& keys, double* out) {
    const std::int64_t d = p.head_dim;
    const float* qh = q + p.q_offset(bh);
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    std::vector<double> s(keys.size());
    double mx = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const float* kj = k + p.kv_offset(bh) + static_cast<std::size_t>(keys[i] * d);
        double dot = 0;
        for (std::int64_t c = 0; c < d; ++c) dot += static_cast<double>(qh[c]) * kj[c];
        s[i] = dot * scale;
        mx = std::max(mx, s[i]);
    }
    double sum = 0;
    for (double& e : s) sum += e = std::exp(e - mx);
    std::fill(out, out + d, 0.0);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const float* vj = v + p.kv_offset(bh) + static_cast<std::size_t>(keys[i] * d);
        for (std::int64_t c = 0; c < d; ++c) out[c] += s[i] / sum * vj[c];
    }
}

}  // namespace

Check topk_check(const AttentionWorkload& w, const std::vector<std::int32_t>& channels, const TopkSizes& t,
                 const float* out) {
    const AttentionProblem& p = w.problem();
    const std::size_t size = topk_output_floats(p);
    if (const std::size_t e = kit::first_not_finite(size, [&](std::size_t j) { return out[j]; }); e < size) {
        if (e < p.q_size()) return w.check(out);  // which names the element as every variant's check does
        return kit::not_finite("score " + std::to_string(e - p.q_size()), out[e], w.tolerance());
    }
    const std::int64_t d = p.head_dim, n = p.seq_k, r = t.channels;
    const float* scores = out + p.q_size();
    kit::RelativeL2 score_l2;
    for (std::int64_t bh = 0; bh < p.heads_total(); ++bh) {
        const float* qh = w.q().data() + p.q_offset(bh);
        const float* kh = w.k().data() + p.kv_offset(bh);
        for (std::int64_t j = 0; j < n; ++j) {
            double ref = 0;
            for (std::int64_t c = 0; c < r; ++c) {
                const std::int64_t ch = channels[static_cast<std::size_t>(bh * r + c)];
                ref += static_cast<double>(qh[ch]) * kh[j * d + ch];
            }
            score_l2.add(scores[bh * n + j], ref);
        }
    }
    if (Check c = score_l2.result(w.tolerance(), "over the approximate scores"); !c.ok) return c;
    kit::RelativeL2 l2;
    std::vector<double> ref(static_cast<std::size_t>(d));
    for (std::int64_t bh = 0; bh < p.heads_total(); ++bh) {
        const std::vector<std::int64_t> keys = topk_select(scores + bh * n, n, t.tokens);
        reference_over(p, w.q().data(), w.k().data(), w.v().data(), bh, keys, ref.data());
        for (std::int64_t c = 0; c < d; ++c) l2.add(out[bh * d + c], ref[static_cast<std::size_t>(c)]);
    }
    return l2.result(w.tolerance(), "over the " + std::to_string(t.tokens) + " keys selected per head");
}

Counter topk_approx_error(const AttentionWorkload& w, const float* o) {
    // seq_q = 1: the workload holds the dense reference of every head (reference_rows are all rows).
    const std::int64_t d = w.problem().head_dim;
    double err = 0, norm = 0;
    for (std::size_t r = 0; r < w.reference_rows().size(); ++r)
        for (std::int64_t c = 0; c < d; ++c) {
            const double ref = w.reference()[r * static_cast<std::size_t>(d) + static_cast<std::size_t>(c)];
            const double x = o[w.reference_rows()[r] * d + c] - ref;
            err += x * x;
            norm += ref * ref;
        }
    return {"approx.rel_l2", norm > 0 ? std::sqrt(err / norm) : std::sqrt(err), "", CounterSource::model};
}

void attention_topk_sparse(const AttentionProblem& p, const TopkSizes& t, const float* q, const float* k,
                           const float* v, const float* label, const std::int32_t* channels, float* out,
                           std::int32_t* selected) {
    if (active_isa() == Isa::avx512)
        attention_topk_sparse<Isa::avx512>(p, t, q, k, v, label, channels, out, selected);
    else
        attention_topk_sparse<Isa::avx2>(p, t, q, k, v, label, channels, out, selected);
}

double topk_kv_bytes(const AttentionProblem& p, const TopkSizes& t) {
    const auto bh = static_cast<double>(p.heads_total());
    return bh * (4.0 * static_cast<double>(t.channels * p.seq_k) +
                 2.0 * static_cast<double>(t.tokens * p.head_dim) * p.element_bytes());
}

TopkTraffic topk_traffic(const AttentionProblem& p, const TopkSizes& t, TopkPlan plan) {
    const auto bh = static_cast<double>(p.heads_total()), d = static_cast<double>(p.head_dim),
               n = static_cast<double>(p.seq_k), k = static_cast<double>(t.tokens), r = static_cast<double>(t.channels),
               s = static_cast<double>(plan.splits), passes = static_cast<double>(plan.score_passes);
    const double e = p.element_bytes();
    TopkTraffic x;
    x.reads = bh * (d * e + 4 * r) + topk_kv_bytes(p, t);
    x.writes = bh * (4 * n + 4 * k + 4 * s * (d + 1) + d * e);  // s = 0: no partials
    x.rereads = bh * (4 * passes * n + 4 * k + 4 * s * (d + 1) + s * d * e + r * e);
    return x;
}

std::vector<Counter> topk_model(const AttentionProblem& p, const TopkSizes& t, TopkPlan plan,
                                const MemoryHierarchy& mh) {
    const auto bh = static_cast<double>(p.heads_total()), d = static_cast<double>(p.head_dim),
               n = static_cast<double>(p.seq_k), k = static_cast<double>(t.tokens), r = static_cast<double>(t.channels);
    const double flops = bh * (2 * r * n + 4 * k * d);
    const double qo = bh * 2 * d * p.element_bytes();
    const TopkTraffic x = topk_traffic(p, t, plan);
    const double workspace = 4.0 * (static_cast<double>(decode_splitkv_workspace_floats(p, plan.splits)) + bh * k);
    return byte_model(flops, qo + topk_kv_bytes(p, t), workspace, mh,
                      {{std::numeric_limits<double>::infinity(), x.reads + x.writes}, {4 * n, x.rereads}});
}

}  // namespace memwall
