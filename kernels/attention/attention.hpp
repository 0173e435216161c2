// The attention family's shared definitions: the problem, its layout, the workload (inputs and
// float64 reference), the check, the variants' kernels and the shared parts of their models.
//
// O = softmax(scale * Q K^T + mask) V per (batch, head), with Q [b, h, s_q, d], K and V
// [b, h, s_k, d], O [b, h, s_q, d], row-major fp32, scale = 1/sqrt(d). Causal masking uses
// bottom-right alignment (FlashAttention >= 2.1): query i sees keys j <= i + (s_k - s_q); a
// query row that sees no key outputs zeros.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalogue.hpp"
#include "harness/errors.hpp"
#include "harness/params.hpp"
#include "profiler/counter.hpp"
#include "profiler/memory_hierarchy.hpp"

namespace memwall {

struct AttentionProblem {
    std::int64_t batch = 1;
    std::int64_t heads = 1;
    std::int64_t seq_q = 1;
    std::int64_t seq_k = 1;
    std::int64_t head_dim = 64;
    bool causal = false;

    // Reads the family's problem axes (batch, heads, seq_q, seq_k, head_dim, causal).
    static AttentionProblem from(const Params& p) {
        AttentionProblem a;
        a.batch = p.integer("batch");
        a.heads = p.integer("heads");
        a.seq_q = p.integer("seq_q");
        a.seq_k = p.integer("seq_k");
        a.head_dim = p.integer("head_dim");
        a.causal = p.integer("causal") != 0;
        a.validate();
        return a;
    }

    void validate() const {
        if (batch < 1 || heads < 1 || seq_q < 1 || seq_k < 1)
            throw UsageError("attention: batch, heads, seq_q and seq_k must be positive");
        if (head_dim != 64 && head_dim != 128)
            throw UsageError("attention: head_dim must be 64 or 128, got " + std::to_string(head_dim));
    }

    std::int64_t heads_total() const { return batch * heads; }
    // Elements of Q (and of O), and of K (and of V).
    std::size_t q_size() const { return static_cast<std::size_t>(heads_total() * seq_q * head_dim); }
    std::size_t kv_size() const { return static_cast<std::size_t>(heads_total() * seq_k * head_dim); }
    // Offsets of head `bh` (= b * heads + h) in Q/O and in K/V.
    std::size_t q_offset(std::int64_t bh) const { return static_cast<std::size_t>(bh * seq_q * head_dim); }
    std::size_t kv_offset(std::int64_t bh) const { return static_cast<std::size_t>(bh * seq_k * head_dim); }
    float scale() const { return 1.0f / std::sqrt(static_cast<float>(head_dim)); }

    // Query row i sees the keys 0 .. visible_keys(i) - 1.
    std::int64_t visible_keys(std::int64_t i) const {
        if (!causal) return seq_k;
        return std::clamp<std::int64_t>(i + seq_k - seq_q + 1, 0, seq_k);
    }
};

// Inputs uniform in [-1, 1] (never zero) from a seeded generator, and the float64 reference
// of a set of output rows: all rows when b*h*s_q*s_k <= full_reference_limit, else a fixed
// sample per head (first and last rows, the causal edge, random rows).
class AttentionWorkload : public Workload {
public:
    static constexpr std::int64_t default_full_reference_limit = std::int64_t{1} << 24;
    static constexpr std::int64_t sampled_rows_per_head = 64;
    static constexpr double tolerance = 1e-4;  // relative L2 error, fp32

    AttentionWorkload(const AttentionProblem& p, std::uint64_t seed,
                      std::int64_t full_reference_limit = default_full_reference_limit);

    const AttentionProblem& problem() const { return problem_; }
    const std::vector<float>& q() const { return q_; }
    const std::vector<float>& k() const { return k_; }
    const std::vector<float>& v() const { return v_; }
    // Global rows (bh * s_q + i) whose reference is held, ascending; head_dim values each.
    const std::vector<std::int64_t>& reference_rows() const { return rows_; }
    const std::vector<double>& reference() const { return reference_; }

    // Every element of `o` (q_size() floats) must be finite, and the relative L2 error over
    // the reference rows below `tolerance`.
    Check check(const float* o) const;

private:
    AttentionProblem problem_;
    std::vector<float> q_, k_, v_;
    std::vector<std::int64_t> rows_;
    std::vector<double> reference_;
};

// The rows AttentionWorkload checks (see there); deterministic in `seed`.
std::vector<std::int64_t> attention_reference_rows(const AttentionProblem& p, std::uint64_t seed,
                                                   std::int64_t full_reference_limit);

// Output row i of head bh in float64 (head_dim values into `out`).
void attention_reference_row(const AttentionProblem& p, const float* q, const float* k,
                             const float* v, std::int64_t bh, std::int64_t i, double* out);

// naive: S = scale Q K^T for all heads into `scores` (b*h*s_q*s_k floats), row softmax in
// place, O = P V; each pass multi-threaded with OpenMP.
std::size_t naive_workspace_floats(const AttentionProblem& p);
void attention_naive(const AttentionProblem& p, const float* q, const float* k, const float* v,
                     float* o, float* scores);

// flash: FlashAttention-2 loop order with query tiles of br rows and key tiles of bc columns.
struct FlashTiles {
    int br = 0;  // query rows per tile
    int bc = 0;  // keys per tile
};
// br must be a multiple of 8 (tiles are padded to whole micro-kernel row blocks), bc of the
// vector width.
inline constexpr int flash_rows_granule = 8;
int flash_cols_granule();
// Throws UsageError naming the rule a tile breaks.
void validate_tiles(FlashTiles t);
// K of every head packed transposed, in panels of bc keys (zero-padded): the workspace.
std::size_t flash_workspace_floats(const AttentionProblem& p, FlashTiles t);
// Per-thread tile buffers (Q tile, score tile, O accumulator, row statistics), allocated in run.
std::size_t flash_scratch_floats(const AttentionProblem& p, FlashTiles t);
void attention_flash(const AttentionProblem& p, FlashTiles t, const float* q, const float* k,
                     const float* v, float* o, float* packed_k);

// Models. FLOPs follow the FlashAttention benchmarks: 4*b*h*s_q*s_k*d, halved when causal.
inline double attention_flops(const AttentionProblem& p) {
    const double f = 4.0 * static_cast<double>(p.heads_total()) * static_cast<double>(p.seq_q) *
                     static_cast<double>(p.seq_k) * static_cast<double>(p.head_dim);
    return p.causal ? f / 2 : f;
}
// Compulsory traffic: Q, K and V read once, O written once.
inline double attention_compulsory_bytes(const AttentionProblem& p) {
    return 4.0 * static_cast<double>(2 * p.q_size() + 2 * p.kv_size());
}

// One stream of a byte model: `bytes` moved, served from the innermost level whose per-thread
// capacity holds `working_set` (the data a thread re-reads between uses; infinity: dram).
struct TrafficStream {
    double working_set = 0;
    double bytes = 0;
};

// bytes.<level> counters: the bytes crossing the boundary between a level and the ones inside
// it, i.e. the sum of the streams served from that level or from farther out. Emitted for dram
// and every cache level out from the innermost one serving a stream (inner levels are not
// modelled).
inline std::vector<Counter> traffic_counters(const MemoryHierarchy& mh,
                                             const std::vector<TrafficStream>& streams) {
    std::vector<std::string> names;
    for (const CacheLevel& c : mh.caches) names.push_back(c.name);
    names.emplace_back("dram");
    std::vector<double> served(names.size(), 0.0);
    std::size_t innermost = names.size() - 1;
    for (const TrafficStream& s : streams) {
        const std::string level = mh.level_holding(s.working_set);
        const auto at = static_cast<std::size_t>(
            std::find(names.begin(), names.end(), level) - names.begin());
        const std::size_t idx = std::min(at, names.size() - 1);
        served[idx] += s.bytes;
        innermost = std::min(innermost, idx);
    }
    std::vector<Counter> out;
    double crossing = 0;
    for (std::size_t i = names.size(); i-- > innermost;) {
        crossing += served[i];
        out.push_back({counters::bytes_at(names[i]), crossing, "B", CounterSource::model});
    }
    return out;
}

std::vector<Counter> naive_model(const AttentionProblem& p, const MemoryHierarchy& mh);
std::vector<Counter> flash_model(const AttentionProblem& p, FlashTiles t, const MemoryHierarchy& mh);

}  // namespace memwall
