// The attention family's shared definitions: the problem, its layout, the workload (inputs and
// float64 reference), the check, the variants' kernels and the shared parts of their models.
//
// O = softmax(scale * Q K^T + mask) V per (batch, head), with Q [b, h, s_q, d], K and V
// [b, h, s_k, d], O [b, h, s_q, d], row-major in the dtype (fp32 or bf16; arithmetic is fp32
// either way), scale = 1/sqrt(d). Causal masking uses
// bottom-right alignment (FlashAttention >= 2.1): query i sees keys j <= i + (s_k - s_q); a
// query row that sees no key outputs zeros. flash_blocksparse's problems also carry a block mask
// (cuda/block_mask.hpp): the keys of its masked blocks score -inf as well.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "core/isa.hpp"
#include "core/params.hpp"
#include "kernels/attention/cuda/block_mask.hpp"
#include "kernels/kit/placed_buffer.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

// Placement slots of the CPU kernels' buffers (kit/placed_buffer.hpp): the arrays a kernel
// streams together never share their address bits below 4 KiB.
namespace attention_slot {
inline constexpr std::size_t kQ = 0, kK = 1, kV = 2, kO = 3, kWorkspace = 4;
}

// The element type of Q, K, V and O in memory: the dtype axis ("fp32", "bf16").
enum class AttentionDtype { fp32, bf16 };

inline AttentionDtype attention_dtype_from(const std::string& name) {
    if (name == "fp32") return AttentionDtype::fp32;
    if (name == "bf16") return AttentionDtype::bf16;
    throw UsageError("attention: dtype must be fp32 or bf16, got '" + name + "'");
}

struct AttentionProblem {
    std::int64_t batch = 1;
    std::int64_t heads = 1;
    std::int64_t seq_q = 1;
    std::int64_t seq_k = 1;
    std::int64_t head_dim = 64;
    bool causal = false;
    AttentionDtype dtype = AttentionDtype::fp32;
    // Kind none but for flash_blocksparse; its random seed is the workload's.
    attention_cuda::BlockMask mask;
    // Channels per head whose Q and K values are kOutlierScale times larger (Double Sparsity's
    // outlier channels); 0: none.
    std::int64_t outliers = 0;
    static constexpr float kOutlierScale = 8.0f;

    // Reads the family's problem axes (batch, heads, seq_q, seq_k, head_dim, causal, dtype),
    // topk_sparse's outliers and flash_blocksparse's (block_mask_from).
    static AttentionProblem from(const Params& p) {
        AttentionProblem a;
        a.batch = p.integer("batch");
        a.heads = p.integer("heads");
        a.seq_q = p.integer("seq_q");
        a.seq_k = p.integer("seq_k");
        a.head_dim = p.integer("head_dim");
        a.causal = p.integer("causal") != 0;
        a.dtype = attention_dtype_from(p.str("dtype"));
        if (p.has("outliers")) a.outliers = p.integer("outliers");
        a.validate();
        a.mask = block_mask_from(p);
        return a;
    }

    void validate() const {
        if (batch < 1 || heads < 1 || seq_q < 1 || seq_k < 1)
            throw UsageError("attention: batch, heads, seq_q and seq_k must be positive");
        if (head_dim != 64 && head_dim != 128)
            throw UsageError("attention: head_dim must be 64 or 128, got " + std::to_string(head_dim));
        if (outliers < 0 || outliers > head_dim)
            throw UsageError("attention: outliers must be 0 to head_dim, got " + std::to_string(outliers));
    }

    std::int64_t heads_total() const { return batch * heads; }
    // Bytes of one element of Q, K, V or O.
    double element_bytes() const { return dtype == AttentionDtype::bf16 ? 2.0 : 4.0; }
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
    // Whether the block mask keeps the block of query row i and key j.
    bool key_kept(std::int64_t i, std::int64_t j) const {
        return attention_cuda::block_kept(mask, static_cast<int>(i / mask.block), static_cast<int>(j / mask.block));
    }

    // flash_blocksparse's mask axes (mask, block, window, density) of a point, validated (one-line
    // UsageError); kind none when the point has none.
    static attention_cuda::BlockMask block_mask_from(const Params& p);
};

// Inputs uniform in [-1, 1] (never zero) from a seeded generator, rounded to bf16 (held as
// the floats they are exactly) for a bf16 problem, each head's `outliers` channels (seeded) of Q
// and K scaled by kOutlierScale (exact in bf16 too), so the reference sees the inputs the
// kernels see; and the float64 reference of a set of output rows: all rows when
// b*h*s_q*s_k <= full_reference_limit, else a fixed sample per head (first and last rows, the
// causal edge, random rows).
class AttentionWorkload : public Workload {
  public:
    static constexpr std::int64_t kDefaultFullReferenceLimit = std::int64_t{1} << 24;
    static constexpr std::int64_t kSampledRowsPerHead = 64;
    // Bounds of the relative L2 error. fp32: the fp32 arithmetic's. bf16: the output rounded to
    // bf16 (8-bit significand, round to nearest: unit roundoff 2^-8) is off by at most 2^-8 of
    // each element, so by at most 2^-8 in relative L2, on top of the fp32 arithmetic (the
    // inputs are exact, and the reference reads the same).
    static constexpr double kFp32Tolerance = 1e-4;
    static constexpr double kBf16Tolerance = 0x1p-8 + kFp32Tolerance;

    AttentionWorkload(const AttentionProblem& p, std::uint64_t seed,
                      std::int64_t full_reference_limit = kDefaultFullReferenceLimit);

    const AttentionProblem& problem() const { return problem_; }
    const kit::PlacedBuffer& q() const { return q_; }
    const kit::PlacedBuffer& k() const { return k_; }
    const kit::PlacedBuffer& v() const { return v_; }
    // Global rows (bh * s_q + i) whose reference is held, ascending; head_dim values each.
    const std::vector<std::int64_t>& reference_rows() const { return rows_; }
    const std::vector<double>& reference() const { return reference_; }
    // The bound of the problem's dtype.
    double tolerance() const { return problem_.dtype == AttentionDtype::bf16 ? kBf16Tolerance : kFp32Tolerance; }

    // Every element of `o` (q_size() floats) must be finite, and the relative L2 error over
    // the reference rows below tolerance().
    Check check(const float* o) const;

  private:
    AttentionProblem problem_;
    kit::PlacedBuffer q_{kit::PlacedAllocator<float>(attention_slot::kQ)};
    kit::PlacedBuffer k_{kit::PlacedAllocator<float>(attention_slot::kK)};
    kit::PlacedBuffer v_{kit::PlacedAllocator<float>(attention_slot::kV)};
    std::vector<std::int64_t> rows_;
    std::vector<double> reference_;
};

// The rows AttentionWorkload checks (see there); deterministic in `seed`.
std::vector<std::int64_t> attention_reference_rows(const AttentionProblem& p, std::uint64_t seed,
                                                   std::int64_t full_reference_limit);

// Output row i of head bh in float64 (head_dim values into `out`).
void attention_reference_row(const AttentionProblem& p, const float* q, const float* k, const float* v, std::int64_t bh,
                             std::int64_t i, double* out);

// The CPU kernels are built once per ISA (kit/kernel_isa.hpp): attention_naive<Isa::avx2> and
// <Isa::avx512> (the latter only on hosts that have it); the plain functions call the active
// ISA's (core/isa.hpp).
//
// naive: S = scale Q K^T for all heads into `scores` (b*h*s_q*s_k floats), row softmax in
// place, O = P V; each pass multi-threaded with OpenMP.
std::size_t naive_workspace_floats(const AttentionProblem& p);
template <Isa isa>
void attention_naive(const AttentionProblem& p, const float* q, const float* k, const float* v, float* o,
                     float* scores);
void attention_naive(const AttentionProblem& p, const float* q, const float* k, const float* v, float* o,
                     float* scores);

// flash: FlashAttention-2 loop order with query tiles of br rows and key tiles of bc columns. On
// a problem with a block mask (flash_blocksparse) the tiles nest in the mask's blocks, and a query
// tile visits only the key tiles the mask keeps.
struct FlashTiles {
    int br = 0;  // query rows per tile
    int bc = 0;  // keys per tile
};
// br must be a multiple of 8 (tiles are padded to whole micro-kernel row blocks), bc of the
// vector width (16 floats with AVX-512, 8 with AVX2; with no ISA given, the active one's).
inline constexpr int kFlashRowsGranule = 8;
int flash_cols_granule(Isa isa);
int flash_cols_granule();
// Throws UsageError naming the rule a tile breaks.
void validate_tiles(FlashTiles t, Isa isa);
void validate_tiles(FlashTiles t);
// Throws UsageError unless br and bc divide the mask's block (no mask: nothing to nest in).
void validate_mask_tiles(const AttentionProblem& p, FlashTiles t);
// K (transposed) and V of every head packed in panels of bc keys (zero-padded), each panel in
// strips of the micro-kernel's columns: the workspace.
std::size_t flash_workspace_floats(const AttentionProblem& p, FlashTiles t);
// Per-thread tile buffers (Q tile, score tile, O accumulator, row statistics), allocated in run.
std::size_t flash_scratch_floats(const AttentionProblem& p, FlashTiles t);
template <Isa isa>
void attention_flash(const AttentionProblem& p, FlashTiles t, const float* q, const float* k, const float* v, float* o,
                     float* packed_k);
void attention_flash(const AttentionProblem& p, FlashTiles t, const float* q, const float* k, const float* v, float* o,
                     float* packed_k);

// Scores a block-sparse problem computes: over every head, the (query, key) pairs that the
// causal rule lets the query see and the mask keeps.
double visited_scores(const AttentionProblem& p);

// Models. FLOPs follow the FlashAttention benchmarks: 4*b*h*s_q*s_k*d, halved when causal; with
// a block mask, 4*d per visited score.
inline double attention_flops(const AttentionProblem& p) {
    if (p.mask.kind != attention_cuda::MaskKind::none) return 4.0 * static_cast<double>(p.head_dim) * visited_scores(p);
    const double f = 4.0 * static_cast<double>(p.heads_total()) * static_cast<double>(p.seq_q) *
                     static_cast<double>(p.seq_k) * static_cast<double>(p.head_dim);
    return p.causal ? f / 2 : f;
}
// Compulsory traffic: Q, K and V read once, O written once, in the dtype.
inline double attention_compulsory_bytes(const AttentionProblem& p) {
    return p.element_bytes() * static_cast<double>(2 * p.q_size() + 2 * p.kv_size());
}

std::vector<Counter> naive_model(const AttentionProblem& p, const MemoryHierarchy& mh);
std::vector<Counter> flash_model(const AttentionProblem& p, FlashTiles t, const MemoryHierarchy& mh);

// flash_tc (CUDA, cuda/flash_tc.cuh): blocks of t.br query rows, 16 per warp, key tiles of t.bc.
// The FLOPs its mma.sync instructions execute: per warp and key tile up to the last its rows
// see, the whole 16 x bc x d products of QK^T and PV (padding rows, masked keys and all).
double flash_tc_tensor_flops(const AttentionProblem& p, FlashTiles t);
// K and V bytes it reads: each query tile reads every key tile up to its last row's keys once
// (rows past seq_k are zero-filled, not read).
double flash_tc_kv_bytes(const AttentionProblem& p, FlashTiles t);
// flops (the convention above), flops.bf16_tensor (flash_tc_tensor_flops, which may exceed it),
// bytes.min, and bytes per level: Q, K, V and O once from DRAM, K and V's re-reads from the
// level that holds one head's K and V; no workspace.
std::vector<Counter> flash_tc_model(const AttentionProblem& p, FlashTiles t, const MemoryHierarchy& mh);

}  // namespace memwall
