// The model of attention/flash_tc (cuda/flash_tc.cuh), walking its blocks and warps as the
// kernel does, so that under cuda-emu the counted tensor FLOPs and global loads equal it exactly.
#include <algorithm>
#include <limits>

#include "kernels/attention/attention.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

constexpr std::int64_t kRowsPerWarp = 16;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Calls f(i0, rows, key_tiles) for each query tile of one head (every head is alike): key_tiles
// the tiles its last row sees.
template <class F>
void for_each_query_tile(const AttentionProblem& p, FlashTiles t, F f) {
    for (std::int64_t i0 = 0; i0 < p.seq_q; i0 += t.br) {
        const std::int64_t rows = std::min<std::int64_t>(t.br, p.seq_q - i0);
        f(i0, rows, ceil_div(p.visible_keys(i0 + rows - 1), t.bc));
    }
}

// Keys of key tile j that the kernel loads (rows past seq_k are zero-filled, not read).
double tile_keys(const AttentionProblem& p, FlashTiles t, std::int64_t j) {
    return static_cast<double>(std::min<std::int64_t>(t.bc, p.seq_k - j * t.bc));
}

}  // namespace

double flash_tc_tensor_flops(const AttentionProblem& p, FlashTiles t) {
    // One warp's QK^T and PV over one key tile: 2 * (16 x bc x d) multiply-adds.
    const double per_warp_tile = 2.0 * 2.0 * kRowsPerWarp * t.bc * static_cast<double>(p.head_dim);
    double tiles = 0;
    for_each_query_tile(p, t, [&](std::int64_t i0, std::int64_t, std::int64_t) {
        for (std::int64_t w0 = i0; w0 < std::min<std::int64_t>(i0 + t.br, p.seq_q); w0 += kRowsPerWarp) {
            const std::int64_t warp_tiles = ceil_div(p.visible_keys(std::min(w0 + kRowsPerWarp, p.seq_q) - 1), t.bc);
            for (std::int64_t j = 0; j < warp_tiles; ++j) tiles += p.key_kept(i0, j * t.bc) ? 1 : 0;
        }
    });
    return static_cast<double>(p.heads_total()) * tiles * per_warp_tile;
}

double flash_tc_kv_bytes(const AttentionProblem& p, FlashTiles t) {
    double rows = 0;
    for_each_query_tile(p, t, [&](std::int64_t i0, std::int64_t, std::int64_t key_tiles) {
        for (std::int64_t j = 0; j < key_tiles; ++j)
            if (p.key_kept(i0, j * t.bc)) rows += tile_keys(p, t, j);
    });
    return 2.0 * static_cast<double>(p.heads_total()) * rows * static_cast<double>(p.head_dim) * p.element_bytes();
}

std::vector<Counter> flash_tc_model(const AttentionProblem& p, FlashTiles t, const MemoryHierarchy& mh) {
    // K and V's first reads are compulsory: all of them without a mask (the last query tile sees
    // every key), those of the tiles some query tile visits with one.
    std::vector<bool> visited(static_cast<std::size_t>(ceil_div(p.seq_k, t.bc)), false);
    for_each_query_tile(p, t, [&](std::int64_t i0, std::int64_t, std::int64_t key_tiles) {
        for (std::int64_t j = 0; j < key_tiles; ++j)
            if (p.key_kept(i0, j * t.bc)) visited[static_cast<std::size_t>(j)] = true;
    });
    double head_keys = 0;
    for (std::size_t j = 0; j < visited.size(); ++j)
        if (visited[j]) head_keys += tile_keys(p, t, static_cast<std::int64_t>(j));
    const double head_kv = 2.0 * head_keys * static_cast<double>(p.head_dim) * p.element_bytes();
    const double kv_once = static_cast<double>(p.heads_total()) * head_kv;
    const double compulsory = 2.0 * static_cast<double>(p.q_size()) * p.element_bytes() + kv_once;
    std::vector<Counter> model = byte_model(
        attention_flops(p), compulsory, 0, mh,
        {{std::numeric_limits<double>::infinity(), compulsory}, {head_kv, flash_tc_kv_bytes(p, t) - kv_once}});
    model.push_back(
        {std::string(counters::kFlopsBf16Tensor), flash_tc_tensor_flops(p, t), "FLOP", CounterSource::model});
    return model;
}

}  // namespace memwall
