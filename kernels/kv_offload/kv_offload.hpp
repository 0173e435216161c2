// The kv_offload family's shared definitions: the problem, the per-step page selections, the
// workload (queries, the KV pages in DRAM and in a scratch file, the float64 reference) and the
// check.
//
// A decode step: for each head, one query attends to every token of the pages selected this
// step: o = softmax(q·Kᵀ / sqrt(d))·V over those tokens. The KV cache is `pages` pages of
// `page_tokens` tokens; page p holds, in the dtype (fp32), K then V, each [heads][page_tokens]
// [head_dim] row-major, so one read of a page brings every head's keys and values of its tokens.
// The output is [steps][heads][head_dim] floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/params.hpp"
#include "kernels/kit/placed_buffer.hpp"
#include "kernels/kv_offload/scratch_file.hpp"
#include "metrics/counter.hpp"

namespace memwall {

// Placement slots of the CPU kernels' buffers (kit/placed_buffer.hpp).
namespace kv_slot {
inline constexpr std::size_t kKv = 0, kQ = 1, kOut = 2, kStaging = 3;
}

struct KvProblem {
    std::int64_t context = 1;      // tokens in the KV cache
    std::int64_t page_tokens = 1;  // tokens per page
    std::int64_t heads = 1, head_dim = 1;
    double select = 1;  // fraction of the pages selected per step
    double reuse = 0;   // fraction of a step's pages the previous step also selected
    std::int64_t steps = 1;
    bool warm = false;  // keep the file's pages in the page cache between runs
    // selection=topk: each step's pages are those Double Sparsity's approximate scores rank
    // highest (kv_topk_selections), with label_channels channels per head; else the seeded
    // selection with its reuse.
    bool topk = false;
    std::int64_t label_channels = 16;

    // Reads the family's problem axes (context, page_tokens, heads, head_dim, dtype, select,
    // reuse, steps, tier, warm, selection, label_channels). Throws UsageError with one line when
    // the problem is malformed: a size below 1, a context that is not whole pages, a fraction
    // outside its range, a seeded reuse that the pages outside the previous selection cannot
    // meet, or label channels outside [1, head_dim].
    static KvProblem from(const Params& p);

    std::int64_t pages() const { return context / page_tokens; }
    // Pages selected per step: select × pages rounded, at least one.
    std::int64_t selected() const;
    // Of those, the pages the previous step also selected: reuse × selected(), rounded.
    std::int64_t reused() const;
    std::size_t page_floats() const { return static_cast<std::size_t>(2 * heads * page_tokens * head_dim); }
    std::size_t page_bytes() const { return page_floats() * sizeof(float); }
    std::uint64_t file_bytes() const { return static_cast<std::uint64_t>(pages()) * page_bytes(); }
    // Offsets in floats of head h's keys and values inside a page.
    std::size_t k_offset(std::int64_t h) const { return static_cast<std::size_t>(h * page_tokens * head_dim); }
    std::size_t v_offset(std::int64_t h) const {
        return static_cast<std::size_t>((heads + h) * page_tokens * head_dim);
    }
    std::size_t out_floats() const { return static_cast<std::size_t>(steps * heads * head_dim); }

    // Bytes of the pages every step reads from the tier, over all steps.
    double tier_bytes() const;
    // Per token and head: q·k (2d) and p·v (2d) FLOPs, over the selected tokens of every step.
    double flops() const;
    // The tier's pages, the queries and the output once.
    double min_bytes() const;
};

// The pages each step selects (ascending), drawn from `seed`: step 0 any selected() distinct
// pages; each later step keeps reused() pages of the previous selection, chosen at random, and
// adds selected() - reused() pages the previous step did not select.
std::vector<std::vector<std::int64_t>> kv_selections(const KvProblem& p, std::uint64_t seed);

// selection=topk: the pages of each step ranked by Double Sparsity's approximate scores. Per head,
// the label_channels channels of largest mean |K| over the context (the calibration); a token's
// score is q[r] . K[r] of its head over those channels, in float64 (the kernels never see it:
// the selection is the workload's, as the seeded one is); a page's score is the sum over heads of
// its tokens' largest score; the selected() pages of largest score, a tie to the lower page,
// ascending. `kv` is every page, `q` [steps][heads][head_dim].
std::vector<std::vector<std::int64_t>> kv_topk_selections(const KvProblem& p, const float* kv, const float* q);

// The locality between consecutive steps (NOSA's): the mean over steps after the first of the
// fraction of a step's pages the step before also selected; 0 for one step. The counter `reuse`.
double selection_reuse(const std::vector<std::vector<std::int64_t>>& selections);
Counter reuse_counter(const std::vector<std::vector<std::int64_t>>& selections);

// The pages an LRU of `capacity` pages (at least one step's selection), empty at the start, serves
// from DRAM over `selections`: a page is a hit when the cache holds it from an earlier step;
// misses evict the pages last used longest ago, the lowest page first among pages of one step.
std::uint64_t lru_hits(const std::vector<std::vector<std::int64_t>>& selections, std::int64_t capacity);

// o = softmax(scale q·Kᵀ)·V over `n` tokens in float64: q is d values, key j at k + j*d.
void kv_attention_reference(const double* q, const double* k, const double* v, std::int64_t n, std::int64_t d,
                            double* out);

// Queries and KV uniform in ±[0.25, 1] (never zero, random signs); the pages written once to a
// scratch file in `scratch_dir` (removed with the workload); the selections; the float64
// reference of every step.
class KvWorkload : public Workload {
  public:
    KvWorkload(const KvProblem& p, std::uint64_t seed, const std::filesystem::path& scratch_dir);

    const KvProblem& problem() const { return problem_; }
    // All pages in DRAM, page p at kv() + p * page_floats().
    const float* kv() const { return kv_.data(); }
    // Step s, head h's query: head_dim floats.
    const float* q(std::int64_t step, std::int64_t h) const {
        return q_.data() + static_cast<std::size_t>((step * problem_.heads + h) * problem_.head_dim);
    }
    const std::vector<std::vector<std::int64_t>>& selections() const { return selections_; }
    const ScratchFile& file() const { return *file_; }

    // Bound of the relative L2 error: fp32 sums of d products and of n = selected tokens
    // weights in any order, about 2^-24 sqrt(d + n) of the output's size, with 16x room.
    double tolerance() const;
    // Every element of `out` (out_floats()) finite, and the relative L2 error against the float64
    // reference below tolerance().
    Check check(const float* out) const;

  private:
    KvProblem problem_;
    kit::PlacedBuffer kv_{kit::PlacedAllocator<float>(kv_slot::kKv)};
    kit::PlacedBuffer q_{kit::PlacedAllocator<float>(kv_slot::kQ)};
    std::vector<std::vector<std::int64_t>> selections_;
    std::vector<double> reference_;
    std::unique_ptr<ScratchFile> file_;
};

// One decode step's attention in fp32 over the selected pages, page i's data at pages[i]: the
// output of every head (heads × head_dim floats at `out`). Online softmax, one pass over the keys
// and values; heads in parallel.
void kv_attend_step(const KvProblem& p, const KvWorkload& w, std::int64_t step, const float* const* pages, float* out);

}  // namespace memwall
