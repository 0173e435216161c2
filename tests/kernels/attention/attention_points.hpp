// An attention problem for the tests: as the kernels take it, or as a catalogue point (the
// family's problem axes) for the tests that go through the catalogue, with flash_blocksparse's
// block-mask axes or flash_tc's tile on top of one.
#pragma once

#include <cstdint>
#include <string>

#include "core/params.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"

namespace memwall::attention_test {

inline AttentionProblem problem(std::int64_t batch, std::int64_t heads, std::int64_t seq_q, std::int64_t seq_k,
                                std::int64_t head_dim, bool causal, AttentionDtype dtype = AttentionDtype::fp32) {
    AttentionProblem p;
    p.batch = batch;
    p.heads = heads;
    p.seq_q = seq_q;
    p.seq_k = seq_k;
    p.head_dim = head_dim;
    p.causal = causal;
    p.dtype = dtype;
    return p;
}

inline Params problem_point(std::int64_t batch, std::int64_t heads, std::int64_t seq_q, std::int64_t seq_k,
                            std::int64_t head_dim, bool causal, const std::string& dtype) {
    Params p;
    p.set("batch", batch);
    p.set("heads", heads);
    p.set("seq_q", seq_q);
    p.set("seq_k", seq_k);
    p.set("head_dim", head_dim);
    p.set("causal", std::int64_t{causal ? 1 : 0});
    p.set("dtype", dtype);
    return p;
}

inline Params with_mask(Params p, const std::string& mask, std::int64_t block, std::int64_t window, double density) {
    p.set("mask", mask);
    p.set("block", block);
    p.set("window", window);
    p.set("density", density);
    return p;
}

// flash_tc's tile axes (flash_blocksparse's too), head_dim included, from one compiled tile.
inline Params with_tile(Params p, const attention_cuda::FlashTcTile& t) {
    p.set("head_dim", std::int64_t{t.head_dim});
    p.set("Br", std::int64_t{t.br});
    p.set("Bc", std::int64_t{t.bc});
    p.set("warps", std::int64_t{t.warps});
    p.set("stages", std::int64_t{t.stages});
    return p;
}

}  // namespace memwall::attention_test
