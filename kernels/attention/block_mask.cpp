// flash_blocksparse's block mask on the host: read from a point's axes and validated, the scores
// it leaves to compute, and the rule that tiles nest in its blocks.
#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/attention/attention.hpp"

namespace memwall {

namespace {

using attention_cuda::BlockMask;
using attention_cuda::MaskKind;

MaskKind mask_kind_from(const std::string& name) {
    if (name == "local") return MaskKind::local;
    if (name == "global") return MaskKind::global;
    if (name == "random") return MaskKind::random;
    if (name == "butterfly") return MaskKind::butterfly;
    throw UsageError("attention/flash_blocksparse: mask must be local, global, random or butterfly, got '" + name +
                     "'");
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

BlockMask AttentionProblem::block_mask_from(const Params& p) {
    BlockMask m;
    if (!p.has("mask")) return m;
    m.kind = mask_kind_from(p.str("mask"));
    const std::int64_t block = p.integer("block");
    if (block < 16 || block % 16 != 0)
        throw UsageError("attention/flash_blocksparse: block must be a positive multiple of 16, got " +
                         std::to_string(block));
    const std::int64_t window = p.integer("window");
    if (window < 0)
        throw UsageError("attention/flash_blocksparse: window must be 0 or more, got " + std::to_string(window));
    const double density = p.real("density");
    if (!(density > 0 && density <= 1))
        throw UsageError("attention/flash_blocksparse: density must be in (0, 1], got " + to_string(Value{density}));
    const std::int64_t sq = p.integer("seq_q"), sk = p.integer("seq_k");
    m.block = static_cast<int>(block);
    m.q_blocks = static_cast<int>(ceil_div(sq, block));
    m.k_blocks = static_cast<int>(ceil_div(sk, block));
    m.key_offset = static_cast<int>(sk - sq);
    m.window = static_cast<int>(std::min<std::int64_t>(window, m.k_blocks));
    // Each row keeps its diagonal block, so the others are kept with the probability that makes
    // the expected share of a row's blocks `density` (the diagonal alone below 1/k_blocks).
    const double keep = m.k_blocks > 1 ? std::clamp((density * m.k_blocks - 1) / (m.k_blocks - 1), 0.0, 1.0) : 1.0;
    m.threshold = static_cast<std::uint64_t>(std::ldexp(keep, 32));
    return m;
}

double visited_scores(const AttentionProblem& p) {
    const std::int64_t block = p.mask.block;
    double pairs = 0;  // of one head (every head has the same mask)
    for (std::int64_t i = 0; i < p.seq_q; ++i) {
        const std::int64_t n = p.visible_keys(i);
        for (std::int64_t j0 = 0; j0 < n; j0 += block)
            if (p.key_kept(i, j0)) pairs += static_cast<double>(std::min(block, n - j0));
    }
    return static_cast<double>(p.heads_total()) * pairs;
}

void validate_mask_tiles(const AttentionProblem& p, FlashTiles t) {
    if (p.mask.kind == MaskKind::none) return;
    if (p.mask.block % t.br != 0 || p.mask.block % t.bc != 0)
        throw UsageError("attention/flash_blocksparse: Br and Bc must divide block (" + std::to_string(p.mask.block) +
                         "), got Br=" + std::to_string(t.br) + " Bc=" + std::to_string(t.bc));
}

}  // namespace memwall
