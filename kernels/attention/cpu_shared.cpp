// The attention family's CPU variants apart from their kernels (cpu_naive.cpp, cpu_flash.cpp,
// built once per ISA): the workspaces, flash's tile rules, the byte models, and the calls to the
// active ISA's kernels.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/attention/attention.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

std::size_t naive_workspace_floats(const AttentionProblem& p) {
    return static_cast<std::size_t>(p.heads_total() * p.seq_q * p.seq_k);
}

void attention_naive(const AttentionProblem& p, const float* q, const float* k, const float* v, float* o,
                     float* scores) {
    if (active_isa() == Isa::avx512)
        attention_naive<Isa::avx512>(p, q, k, v, o, scores);
    else
        attention_naive<Isa::avx2>(p, q, k, v, o, scores);
}

int flash_cols_granule(Isa isa) { return isa == Isa::avx512 ? 16 : 8; }
int flash_cols_granule() { return flash_cols_granule(active_isa()); }

void validate_tiles(FlashTiles t, Isa isa) {
    const int mr = kFlashRowsGranule, lanes = flash_cols_granule(isa);
    if (t.br < mr || t.br % mr != 0)
        throw UsageError("attention/flash: Br must be a positive multiple of " + std::to_string(mr));
    if (t.bc < lanes || t.bc % lanes != 0)
        throw UsageError("attention/flash: Bc must be a positive multiple of " + std::to_string(lanes));
}
void validate_tiles(FlashTiles t) { validate_tiles(t, active_isa()); }

std::size_t flash_workspace_floats(const AttentionProblem& p, FlashTiles t) {
    return static_cast<std::size_t>(2 * p.heads_total() * ceil_div(p.seq_k, t.bc) * t.bc * p.head_dim);
}

std::size_t flash_scratch_floats(const AttentionProblem& p, FlashTiles t) {
    return static_cast<std::size_t>(t.br * (2 * p.head_dim + t.bc + 3));
}

void attention_flash(const AttentionProblem& p, FlashTiles t, const float* q, const float* k, const float* v, float* o,
                     float* packed_k) {
    if (active_isa() == Isa::avx512)
        attention_flash<Isa::avx512>(p, t, q, k, v, o, packed_k);
    else
        attention_flash<Isa::avx2>(p, t, q, k, v, o, packed_k);
}

// Byte model: the compulsory stream (Q, K, V, O once, from dram); the score tensor S =
// b*h*s_q*s_k*4 bytes (fp32 for every dtype), moved 4 times (written by QK^T, read and written
// by softmax, read by PV), served from the level that holds a thread's share of it (dram once
// it outgrows the llc); and each query row re-reading its visible keys of K (QK^T) and V (PV),
// served from the level that holds one head's K (or V), s_k*d elements.
std::vector<Counter> naive_model(const AttentionProblem& p, const MemoryHierarchy& mh) {
    const double inf = std::numeric_limits<double>::infinity();
    const double d = static_cast<double>(p.head_dim);
    const double score = 4.0 * static_cast<double>(naive_workspace_floats(p));
    double visible = 0;  // sum of visible keys over the query rows of one head
    for (std::int64_t i = 0; i < p.seq_q; ++i) visible += static_cast<double>(p.visible_keys(i));
    const double e = p.element_bytes();
    const double kv_rereads = static_cast<double>(p.heads_total()) * 2 * visible * d * e;

    return byte_model(attention_flops(p), attention_compulsory_bytes(p), score, mh,
                      {{inf, attention_compulsory_bytes(p)},
                       {score / std::max(1, mh.cpus), 4 * score},
                       {static_cast<double>(p.seq_k) * d * e, kv_rereads}});
}

// Byte model (the IO analysis of FlashAttention, Theta(N^2 d^2 / M)): the compulsory stream
// from dram; the pack writing K and V once (the workspace, fp32); and each query tile
// reading the keys it visits of packed K (whole panels of bc keys) and of packed V (up to its
// last visible key): without a mask ceil(s_q/br) * 2*s_k*d elements per head (K rounded up to whole
// panels), served from the level that holds one head's packed K and V. A block mask drops the
// panels of its masked blocks (the pack still reads all of K and V).
std::vector<Counter> flash_model(const AttentionProblem& p, FlashTiles t, const MemoryHierarchy& mh) {
    validate_tiles(t);
    const double inf = std::numeric_limits<double>::infinity();
    const double d = static_cast<double>(p.head_dim);
    const double packed = 4.0 * static_cast<double>(flash_workspace_floats(p, t));
    const double scratch = 4.0 * static_cast<double>(flash_scratch_floats(p, t));
    double keys = 0;  // keys of K (padded panels) and of V read by the query tiles of one head
    for (std::int64_t i0 = 0; i0 < p.seq_q; i0 += t.br) {
        const std::int64_t kend = p.visible_keys(std::min<std::int64_t>(i0 + t.br, p.seq_q) - 1);
        for (std::int64_t j0 = 0; j0 < kend; j0 += t.bc)
            if (p.key_kept(i0, j0)) keys += static_cast<double>(t.bc + std::min<std::int64_t>(t.bc, kend - j0));
    }
    const double e = p.element_bytes();
    const double kv_rereads = static_cast<double>(p.heads_total()) * keys * d * e;
    const double head_kv = static_cast<double>(ceil_div(p.seq_k, t.bc) * t.bc + p.seq_k) * d * e;

    return byte_model(
        attention_flops(p), attention_compulsory_bytes(p), packed + scratch * std::max(1, mh.cpus), mh,
        {{inf, attention_compulsory_bytes(p)}, {packed / std::max(1, mh.cpus), packed}, {head_kv, kv_rereads}});
}

}  // namespace memwall
