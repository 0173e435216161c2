#include "kernels/lora/cuda/traffic_model.hpp"

#include <algorithm>
#include <limits>

#include "kernels/kit/emu_hierarchy.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

using lora_cuda::Method;
using lora_cuda::Tuning;

double d(long long x) { return static_cast<double>(x); }
long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// Floats the tiled GEMM (gemm.cuh) loads for C (m×n) = A (m×depth) · B (depth×n): each column
// tile reads A's valid elements once, each row tile B's.
double gemm_loads(long long m, long long depth, long long n, const Tuning& t) {
    return d(ceil_div(n, t.bn) * m * depth + ceil_div(m, t.bm) * depth * n);
}

// The adapter of token t under LoraProblem's equal contiguous runs.
long long adapter_of(const LoraProblem& p, long long t) {
    long long a = t * p.adapters / p.m;  // segment_begin(a) <= t for this a or the next
    while (a + 1 < p.adapters && p.segment_begin(a + 1) <= t) ++a;
    while (p.segment_begin(a) > t) --a;
    return a;
}

// The adapters each tile of `bm` rows spans, summed over the tiles of `rows` rows from `begin`.
long long adapter_spans(const LoraProblem& p, long long begin, long long rows, long long bm) {
    long long spans = 0;
    for (long long m0 = begin; m0 < begin + rows; m0 += bm)
        spans += adapter_of(p, std::min(begin + rows, m0 + bm) - 1) - adapter_of(p, m0) + 1;
    return spans;
}

// Tensor FLOPs of one gemm_tc launch over `rows` rows from token `begin`: each block's stages,
// 2·BM·BN·32 FLOPs each; with the LoRA term (`lora`), r's stages once per adapter a row tile spans.
double gemm_tc_flops(const LoraProblem& p, long long begin, long long rows, long long n, long long depth, bool lora,
                     const lora_cuda::TcTile& t) {
    const long long bk = lora_cuda::kTcBk;
    const long long stages = ceil_div(rows, t.bm) * ceil_div(depth, bk) +
                             (lora ? adapter_spans(p, begin, rows, t.bm) * ceil_div(p.r, bk) : 0);
    return 2.0 * d(t.bm) * d(t.bn) * d(bk) * d(ceil_div(n, t.bn)) * d(stages);
}

// Tensor FLOPs of one down_project_tc launch: per block of 16·kDownTcWarps tokens and adapter
// they span, K's stages of 2·rows·RP·32 FLOPs, RP = r rounded up to 16.
double down_tc_flops(const LoraProblem& p, long long begin, long long rows) {
    const long long bm = 16 * lora_cuda::kDownTcWarps, bk = lora_cuda::kTcBk;
    return 2.0 * d(bm) * d(lora_cuda::down_tc_rank(static_cast<int>(p.r))) * d(bk) *
           d(adapter_spans(p, begin, rows, bm) * ceil_div(p.k, bk));
}

}  // namespace

lora_cuda::Shape cuda_shape(const LoraProblem& p) {
    const auto i = [](std::int64_t x) { return static_cast<int>(x); };
    lora_cuda::Shape s;
    s.m = i(p.m);
    s.k = i(p.k);
    s.n = i(p.n);
    s.r = i(p.r);
    s.adapters = i(p.adapters);
    s.keep_scale = static_cast<float>(1.0 / (1.0 - p.dropout));
    s.alpha = static_cast<float>(p.alpha);
    s.bf16 = p.dtype == LoraDtype::bf16;
    return s;
}

namespace {

// `tc_down`: fused's and multi_adapter's down-projection is down_project_tc.cuh's.
LoraCudaTraffic traffic(const LoraProblem& p, Method m, const Tuning& t, bool tc_down) {
    const long long M = p.m, K = p.k, N = p.n, R = p.r, A = p.adapters, words = p.mask_words();
    // Bytes of an element of X, W, A, B, S, Y and the workspace (float or bf16); the mask's words
    // and the adapters' ids are 4 bytes.
    const double e = static_cast<double>(p.element_bytes());
    const double x = e * d(M * K), w = e * d(K * N), y = e * d(M * N), s = e * d(M * R), mask = 4 * d(M * words),
                 a_all = e * d(A * K * R), b_all = e * d(A * R * N), ids = 4 * d(M);
    LoraCudaTraffic tr;
    tr.stores = y;
    tr.working_set = x + w + y;
    // The down-projection of `rows` tokens from `begin`: each token's row of X and its mask words
    // once, and A_a (K×r): all of it per token through L1 (down_project.cuh), or per block of
    // tokens and adapter they span (down_project_tc.cuh); each token's row of S stored.
    const auto down = [&](long long begin, long long rows) {
        const long long a_reads = tc_down ? adapter_spans(p, begin, rows, 16 * lora_cuda::kDownTcWarps) : rows;
        tr.loads += e * d(rows * K + a_reads * K * R) + 4 * d(rows * words);
        tr.stores += e * d(rows * R);
    };
    switch (m) {
        case Method::base:
            tr.loads = e * gemm_loads(M, K, N, t);
            tr.dram = x + w + y;
            break;
        case Method::unfused:
        case Method::cublas_unfused: {
            const auto loads = [&](long long rows, long long depth, long long cols) {
                return e * (m == Method::unfused ? gemm_loads(rows, depth, cols, t) : d(rows * depth + depth * cols));
            };
            tr.loads = loads(M, K, N) + x + mask;  // base GEMM; dropout reads X and each mask word once
            tr.stores += x;                        // X'
            for (long long a = 0; a < A; ++a) {
                const long long rows = p.segment_begin(a + 1) - p.segment_begin(a);
                tr.loads += loads(rows, K, R) + loads(rows, R, N);  // S = X'·A_a, T = S·B_a
            }
            tr.stores += s + y;  // S, T
            tr.loads += 2 * y;   // Y += α·T: Y and T read
            tr.stores += y;      // and Y written again
            tr.dram = (x + w + y) + (x + mask + x) + (x + a_all + s) + (s + b_all + y) + 3 * y;
            tr.workspace = x + s + y;
            tr.working_set += mask + a_all + b_all + tr.workspace;
            break;
        }
        case Method::fused:
            for (long long a = 0; a < A; ++a) {
                const long long rows = p.segment_begin(a + 1) - p.segment_begin(a);
                down(p.segment_begin(a), rows);
                // The GEMM over the adapter's rows, then per column tile its rows of S and per row
                // tile all of B_a.
                tr.loads +=
                    e * (gemm_loads(rows, K, N, t) + d(ceil_div(N, t.bn) * rows * R) + d(ceil_div(rows, t.bm) * R * N));
            }
            // Per call: the down-projection reads X_a, its mask and A_a and writes S_a; the GEMM
            // reads X_a, all of W, S_a and B_a and writes Y_a.
            tr.dram = (x + mask + a_all + s) + (x + d(A) * w + s + b_all + y);
            tr.workspace = s;
            tr.working_set += mask + a_all + b_all + s;
            break;
        case Method::multi_adapter: {
            // Per call (the tokens of t.group adapters): the down-projection, each token's adapter
            // once per warp; the GEMM, per column tile the rows' adapters and their S, per row tile
            // B_a of every adapter its rows span.
            double b_loads = 0;
            for (long long a = 0; a < A; a += t.group) {
                const long long begin = p.segment_begin(a), end = p.segment_begin(std::min(A, a + t.group));
                const long long rows = end - begin;
                down(begin, rows);
                for (long long m0 = begin; m0 < end; m0 += t.bm) {
                    const long long span = adapter_of(p, std::min(end, m0 + t.bm) - 1) - adapter_of(p, m0) + 1;
                    b_loads += d(span * R * N);
                }
                tr.loads += 4 * d(rows) + e * gemm_loads(rows, K, N, t);
            }
            tr.loads += 4 * d(ceil_div(N, t.bn) * M) + e * (d(ceil_div(N, t.bn) * M * R) + b_loads);
            const double calls = d(ceil_div(A, t.group));
            tr.dram = (x + mask + a_all + ids + s) + (x + calls * w + ids + s + b_all + y);
            tr.workspace = s;
            tr.working_set += mask + a_all + b_all + ids + s;
            break;
        }
    }
    return tr;
}

}  // namespace

LoraCudaTraffic lora_cuda_traffic(const LoraProblem& p, Method m, const Tuning& t) { return traffic(p, m, t, false); }

LoraCudaTraffic lora_tc_traffic(const LoraProblem& p, Method m, const lora_cuda::TcTuning& t) {
    return traffic(p, m, t.blocking(), true);
}

double lora_tc_tensor_flops(const LoraProblem& p, Method m, const lora_cuda::TcTuning& t) {
    const long long A = p.adapters;
    const auto rows = [&](long long a, long long b) { return p.segment_begin(std::min(A, b)) - p.segment_begin(a); };
    double flops = 0;
    switch (m) {
        case Method::base: return gemm_tc_flops(p, 0, p.m, p.n, p.k, false, t.tile);
        case Method::unfused:
            flops = gemm_tc_flops(p, 0, p.m, p.n, p.k, false, t.tile);
            for (long long a = 0; a < A; ++a)
                flops += gemm_tc_flops(p, p.segment_begin(a), rows(a, a + 1), p.r, p.k, false, t.tile) +
                         gemm_tc_flops(p, p.segment_begin(a), rows(a, a + 1), p.n, p.r, false, t.tile);
            return flops;
        case Method::fused:
        case Method::multi_adapter: {
            const long long step = m == Method::fused ? 1 : t.group;
            for (long long a = 0; a < A; a += step)
                flops += down_tc_flops(p, p.segment_begin(a), rows(a, a + step)) +
                         gemm_tc_flops(p, p.segment_begin(a), rows(a, a + step), p.n, p.k, true, t.tile);
            return flops;
        }
        case Method::cublas_unfused: break;
    }
    return 0;
}

namespace {

// The byte model of a method's traffic.
std::vector<Counter> model_of(const LoraProblem& p, Method m, const LoraCudaTraffic& tr) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double M = static_cast<double>(p.m), K = static_cast<double>(p.k), N = static_cast<double>(p.n);
    const std::vector<TrafficStream> streams = {
        {tr.working_set, std::max(0.0, tr.loads + tr.stores - tr.dram)},
        {inf, tr.dram},
    };
    // base computes X·W alone: its FLOPs and compulsory bytes are the GEMM's.
    const double e = static_cast<double>(p.element_bytes());
    if (m == Method::base)
        return byte_model(2 * M * K * N, e * (M * K + K * N + M * N), 0, kit::emu_gpu_hierarchy(), streams);
    return byte_model(p.flops(), p.min_bytes(), tr.workspace, kit::emu_gpu_hierarchy(), streams);
}

}  // namespace

std::vector<Counter> lora_cuda_model(const LoraProblem& p, Method m, const Tuning& t) {
    return model_of(p, m, lora_cuda_traffic(p, m, t));
}

std::vector<Counter> lora_tc_model(const LoraProblem& p, Method m, const lora_cuda::TcTuning& t) {
    std::vector<Counter> model = model_of(p, m, lora_tc_traffic(p, m, t));
    model.push_back(
        {std::string(counters::kFlopsBf16Tensor), lora_tc_tensor_flops(p, m, t), "FLOP", CounterSource::model});
    return model;
}

}  // namespace memwall
