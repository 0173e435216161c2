// The model of attention/flash_tc (cuda/flash_tc.cuh), walking its blocks and warps as the
// kernel does, so that under cuda-emu the counted tensor FLOPs and global loads equal it exactly.
#include <algorithm>
#include <limits>

#include "kernels/attention/attention.hpp"
#include "profiler/byte_model.hpp"

namespace memwall {

namespace {

constexpr std::int64_t rows_per_warp = 16;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Calls f(rows, key_tiles) for each query tile of one head (every head is alike).
template <class F>
void for_each_query_tile(const AttentionProblem& p, FlashTiles t, F f) {
    for (std::int64_t i0 = 0; i0 < p.seq_q; i0 += t.br) {
        const std::int64_t rows = std::min<std::int64_t>(t.br, p.seq_q - i0);
        f(i0, rows, ceil_div(p.visible_keys(i0 + rows - 1), t.bc));
    }
}

}  // namespace

double flash_tc_tensor_flops(const AttentionProblem& p, FlashTiles t) {
    // One warp's QK^T and PV over one key tile: 2 * (16 x bc x d) multiply-adds.
    const double per_warp_tile = 2.0 * 2.0 * rows_per_warp * t.bc * static_cast<double>(p.head_dim);
    double tiles = 0;
    for_each_query_tile(p, t, [&](std::int64_t i0, std::int64_t, std::int64_t) {
        for (std::int64_t w0 = i0; w0 < std::min<std::int64_t>(i0 + t.br, p.seq_q); w0 += rows_per_warp)
            tiles += static_cast<double>(ceil_div(p.visible_keys(std::min(w0 + rows_per_warp, p.seq_q) - 1), t.bc));
    });
    return static_cast<double>(p.heads_total()) * tiles * per_warp_tile;
}

double flash_tc_kv_bytes(const AttentionProblem& p, FlashTiles t) {
    double rows = 0;
    for_each_query_tile(p, t, [&](std::int64_t, std::int64_t, std::int64_t key_tiles) {
        rows += static_cast<double>(std::min(key_tiles * t.bc, p.seq_k));
    });
    return 2.0 * static_cast<double>(p.heads_total()) * rows * static_cast<double>(p.head_dim) * p.element_bytes();
}

std::vector<Counter> flash_tc_model(const AttentionProblem& p, FlashTiles t, const MemoryHierarchy& mh) {
    const double compulsory = attention_compulsory_bytes(p);
    const double kv_once = 2.0 * static_cast<double>(p.kv_size()) * p.element_bytes();
    const double head_kv = kv_once / static_cast<double>(p.heads_total());
    std::vector<Counter> model = byte_model(
        attention_flops(p), compulsory, 0, mh,
        {{std::numeric_limits<double>::infinity(), compulsory}, {head_kv, flash_tc_kv_bytes(p, t) - kv_once}});
    model.push_back(
        {std::string(counters::kFlopsBf16Tensor), flash_tc_tensor_flops(p, t), "FLOP", CounterSource::model});
    return model;
}

}  // namespace memwall
