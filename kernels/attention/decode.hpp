// The attention family's decode variants (seq_q = 1): decode_splitkv on the CPU (Flash-Decoding:
// key ranges attended separately, partial outputs merged by their log-sum-exps), the dense
// baseline, and topk_sparse (Double Sparsity: approximate scores from r label channels of K,
// exact attention over the k tokens they rank highest). What its CPU and CUDA builds share: the
// calibration, the label cache, the selection rule, the check and the byte models.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/attention/attention.hpp"

namespace memwall {

// decode_splitkv on the CPU: (batch*heads) x splits tasks, each attending the query to keys
// [s*chunk, (s+1)*chunk), chunk = ceil(seq_k / splits), then a combine per head. The workspace
// holds each task's normalised output and log-sum-exp.
std::size_t decode_splitkv_workspace_floats(const AttentionProblem& p, int splits);
template <Isa isa>
void attention_decode_splitkv(const AttentionProblem& p, int splits, const float* q, const float* k, const float* v,
                              float* o, float* work);
void attention_decode_splitkv(const AttentionProblem& p, int splits, const float* q, const float* k, const float* v,
                              float* o, float* work);

// Model of a split decode on either backend: Q, K, V and O once from dram; the partial outputs
// and log-sum-exps written and read back once (from dram too: the combine runs after every split).
std::vector<Counter> decode_splitkv_model(const AttentionProblem& p, int splits, const MemoryHierarchy& mh);

// Double Sparsity's sizes of a decode problem: r label channels and k attended tokens per head.
struct TopkSizes {
    std::int64_t channels = 16;  // r
    std::int64_t tokens = 1;     // k = ceil(sparsity * seq_k)

    // Reads label_channels and sparsity; UsageError (one line) for r outside [1, head_dim], a
    // sparsity outside (0, 1] (k above seq_k), or seq_q other than 1.
    static TopkSizes from(const Params& point);
    void validate(const AttentionProblem& p) const;
};

// topk_sparse's own axes label_channels and sparsity, where the point has them (the family's
// validator calls it on every variant's points): one line naming the rule a point breaks (r
// outside [1, head_dim], a sparsity outside (0, 1], i.e. k above seq_k).
void validate_decode_axes(const Params& point);

// k for a sparsity (the fraction of keys attended), at least one.
std::int64_t topk_tokens(std::int64_t seq_k, double sparsity);

// Calibration: per head, the r channels with the largest mean |K| over the keys (Double
// Sparsity's offline calibration finds the outlier channels), ascending; a tie goes to the lower
// channel. [batch*heads][r].
std::vector<std::int32_t> topk_calibrate(const AttentionProblem& p, const float* k, std::int64_t r);

// The label cache: K restricted to each head's channels, channel-major ([batch*heads][r][seq_k]),
// so one channel's values of consecutive keys are contiguous (vectors on the CPU, coalesced
// loads on a GPU).
std::vector<float> topk_label_cache(const AttentionProblem& p, const float* k,
                                    const std::vector<std::int32_t>& channels, std::int64_t r);

// The channels as a line for the case's message: "label channels: h0 {1,5,..} h1 {..}" (the
// first 8 heads, then how many more).
std::string topk_channels_detail(const std::vector<std::int32_t>& channels, std::int64_t r);

// The selection rule every backend follows: the k largest scores, a tie going to the lower key,
// returned ascending. -0.0 equals +0.0 here, as in the kernels (which add +0.0 first).
std::vector<std::int64_t> topk_select(const float* scores, std::int64_t n, std::int64_t k);

// topk_sparse's output: O ([batch*heads][d]) then the approximate scores q[r] . label
// ([batch*heads][seq_k]), so the check selects from the variant's own scores.
inline std::size_t topk_output_floats(const AttentionProblem& p) {
    return p.q_size() + static_cast<std::size_t>(p.heads_total() * p.seq_k);
}

// The check: every element finite; the scores within the dtype's tolerance (relative L2) of
// their float64 values; O within it of float64 attention over the keys topk_select picks from the
// variant's scores.
Check topk_check(const AttentionWorkload& w, const std::vector<std::int32_t>& channels, const TopkSizes& t,
                 const float* out);
// The method's error: the relative L2 distance of O from dense attention (the workload's float64
// reference), the counter approx.rel_l2.
Counter topk_approx_error(const AttentionWorkload& w, const float* o);

// topk_sparse on the CPU: one task per head (OpenMP), with no barrier between its steps: scores
// from the label cache, the radix selection of k keys (three histogram passes over the scores'
// ordered bits, then one pass collecting the keys ascending) into `selected` ([batch*heads][k]),
// then exact attention over them straight into O.
template <Isa isa>
void attention_topk_sparse(const AttentionProblem& p, const TopkSizes& t, const float* q, const float* k,
                           const float* v, const float* label, const std::int32_t* channels, float* out,
                           std::int32_t* selected);
void attention_topk_sparse(const AttentionProblem& p, const TopkSizes& t, const float* q, const float* k,
                           const float* v, const float* label, const std::int32_t* channels, float* out,
                           std::int32_t* selected);

// How a backend's topk_sparse moves its intermediates: `splits` partial outputs per head (0: a
// head's output goes straight into O), and the passes over each head's scores after they are
// written. CUDA: num_splits, and three histogram passes and the collection. The CPU: no splits,
// and two passes, since its first histogram is taken as the scores are written and the next two
// only over the candidates that one leaves (a few of the keys), before the collection.
struct TopkPlan {
    int splits = 0;
    int score_passes = 2;
};
inline constexpr TopkPlan kTopkCpuPlan{0, 2};
inline TopkPlan topk_cuda_plan(int splits) { return {splits, 4}; }
// Bytes of the KV state topk_sparse reads (label cache and the selected keys' K and V rows),
// against the dense decode's whole K and V.
double topk_kv_bytes(const AttentionProblem& p, const TopkSizes& t);

// topk_sparse's traffic (either backend), in bytes. From dram: Q, the channel ids, the label cache
// and the selected rows of K and V read; the scores, the selected keys, the partials and O
// written. Again from a cache: the scores by the selection's passes, the selected keys and the
// partials read back, the query read by each split and by the gather of its label channels.
// cuda-emu's dram counts equal `reads` and `writes`.
struct TopkTraffic {
    double reads = 0, writes = 0, rereads = 0;
};
TopkTraffic topk_traffic(const AttentionProblem& p, const TopkSizes& t, TopkPlan plan);

// Model (either backend): FLOPs 2r per key (scores) and 4d per selected key; bytes.min Q, O, the
// label cache and the selected rows; topk_traffic's reads and writes from dram, its re-reads from
// the level that holds one head's scores.
std::vector<Counter> topk_model(const AttentionProblem& p, const TopkSizes& t, TopkPlan plan,
                                const MemoryHierarchy& mh);

}  // namespace memwall
