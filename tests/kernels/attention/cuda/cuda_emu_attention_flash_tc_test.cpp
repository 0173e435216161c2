// attention/flash_tc under cuda-emu, whose mma.sync, ldmatrix, stmatrix and cp.async follow the
// PTX ISA's fragment layouts lane by lane: every compiled tile against the float64 reference
// (bf16 bound) on lengths no tile divides, causal (s_q < s_k and s_q > s_k) or not; the tensor
// FLOPs and global bytes the emulator counts against the model; the refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "tests/kernels/attention/attention_points.hpp"
#include "tests/kernels/attention/cuda/flash_tc_emulated.hpp"

namespace memwall {
namespace {

using attention_cuda::Algorithm;
using attention_cuda::FlashTcTile;
using attention_cuda::Tuning;

struct Problem {
    int batch, heads, seq_q, seq_k;
    bool causal;
};

struct TcCase {
    Problem problem;
    FlashTcTile tile;
};

std::ostream& operator<<(std::ostream& os, const TcCase& c) {
    return os << "b " << c.problem.batch << " h " << c.problem.heads << " s_q " << c.problem.seq_q << " s_k "
              << c.problem.seq_k << (c.problem.causal ? " causal" : "") << " d " << c.tile.head_dim << " Br "
              << c.tile.br << " Bc " << c.tile.bc << " warps " << c.tile.warps << " stages " << c.tile.stages;
}

AttentionProblem problem_of(const Problem& x, int head_dim) {
    AttentionProblem p;
    p.batch = x.batch;
    p.heads = x.heads;
    p.seq_q = x.seq_q;
    p.seq_k = x.seq_k;
    p.head_dim = head_dim;
    p.causal = x.causal;
    p.dtype = AttentionDtype::bf16;
    return p;
}

// One forward pass of case `c` on a poisoned output, checked; its traffic.
Outcome run_emulated(const TcCase& c, const emu::EmulationOptions& options = {}) {
    const AttentionWorkload w(problem_of(c.problem, c.tile.head_dim), 7);
    return memwall::run_emulated(w, w.problem(), c.tile, options);
}

// 100 and 200 are multiples of no tile; 77 < 100 < 200 puts the causal diagonal in the
// middle of key tiles, and s_q = 200 > s_k = 77 leaves the first 123 rows without keys.
const Problem problems[] = {
    {1, 2, 100, 100, false}, {2, 1, 100, 100, true}, {1, 2, 77, 200, true}, {1, 1, 200, 77, true}};

std::vector<TcCase> cases() {
    std::vector<TcCase> out;
    for (const FlashTcTile& t : attention_cuda::kFlashTcTiles)
        for (const Problem& p : problems) out.push_back({p, t});
    return out;
}

class CudaEmuAttentionFlashTc : public ::testing::TestWithParam<TcCase> {};

TEST_P(CudaEmuAttentionFlashTc, MatchesReferenceAndTheModelsCounts) {
    const TcCase& c = GetParam();
    const Outcome r = run_emulated(c);
    EXPECT_TRUE(r.check.ok) << r.check.message << " error " << r.check.error;
    // Q read once, K and V as the model walks the tiles; O written once (bf16, 2 bytes each).
    const AttentionProblem p = problem_of(c.problem, c.tile.head_dim);
    EXPECT_EQ(static_cast<double>(r.traffic.load.bytes),
              2.0 * static_cast<double>(p.q_size()) + flash_tc_kv_bytes(p, {c.tile.br, c.tile.bc}));
    EXPECT_EQ(r.traffic.store.bytes, 2 * p.q_size());
}

INSTANTIATE_TEST_SUITE_P(EveryTile, CudaEmuAttentionFlashTc, ::testing::ValuesIn(cases()));

// Shared memory persists from block to block in emulation: other orders, with poisoning,
// expose a block that reads tile entries it did not write.
TEST(CudaEmuAttentionFlashTcOrder, ReverseAndShuffledBlocks) {
    for (emu::BlockOrder order : {emu::BlockOrder::reverse, emu::BlockOrder::shuffled}) {
        emu::EmulationOptions options;
        options.order = order;
        options.seed = 3;
        const Outcome r = run_emulated({{1, 2, 150, 150, true}, attention_cuda::kFlashTcTiles[0]}, options);
        EXPECT_TRUE(r.check.ok) << r.check.message;
    }
}

// The FLOPs the emulated mma.sync instructions count equal the model's flops.bf16_tensor, as the
// harness reports them (source emu beside source model), for every tile the default sweep of
// cuda-emu uses. Whole padded tiles make them more than the convention's count; causal tile
// skipping makes them fewer than without the mask.
TEST(CudaEmuAttentionFlashTcCounters, EmulatedTensorFlopsEqualTheModel) {
    Catalogue c;
    register_attention(c);
    const Family& f = c.family("attention");
    const Variant& v = c.variant("attention", "flash_tc", Backend::cuda_emu);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    for (const FlashTcTile& t : attention_cuda::kFlashTcTiles) {
        double unmasked = 0;
        for (bool causal : {false, true}) {
            const Params point =
                attention_test::with_tile(attention_test::problem_point(1, 2, 130, 200, t.head_dim, causal, "bf16"), t);
            SCOPED_TRACE(point.label());
            const auto w = f.make_workload(point, 5);
            auto inst = v.prepare(*w, point);
            inst->poison();
            inst->run();
            EXPECT_TRUE(inst->check().ok);
            const std::vector<Counter> measured = inst->measured_counters();
            const Counter* emu_flops = find_counter(measured, counters::kFlopsBf16Tensor);
            ASSERT_NE(emu_flops, nullptr);
            EXPECT_EQ(emu_flops->source, CounterSource::emu);
            const std::vector<Counter> model = v.model(point, mh);
            EXPECT_EQ(emu_flops->value, find_counter(model, counters::kFlopsBf16Tensor)->value);
            if (causal) {
                EXPECT_LT(emu_flops->value, unmasked);
            } else {
                EXPECT_GT(emu_flops->value, attention_flops(AttentionProblem::from(point)));
                unmasked = emu_flops->value;
            }
        }
    }
}

TEST(CudaEmuAttentionFlashTc, RefusesFp32AndTilesNotCompiled) {
    attention_cuda::Shape s;
    s.seq_q = s.seq_k = 64;
    s.dtype = attention_cuda::Dtype::fp32;
    const attention_cuda::Inputs none;
    const Tuning first = tuning_of(attention_cuda::kFlashTcTiles[0]);
    try {
        attention_cuda::cuda_emu::make_device_case(s, first, none);
        ADD_FAILURE() << "fp32 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("bf16"), std::string::npos) << e.what();
    }
    s.dtype = attention_cuda::Dtype::bf16;
    s.head_dim = 128;
    try {  // d=128 with Bc=128 would hold 64 more floats per thread than the compiled tiles
        attention_cuda::cuda_emu::make_device_case(
            s, Tuning{.algorithm = Algorithm::flash_tc, .br = 128, .bc = 128, .warps = 8, .stages = 2}, none);
        ADD_FAILURE() << "a tile that is not compiled accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("compiled: d=64 64/64/4/2"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace memwall
