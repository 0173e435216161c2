// attention/flash_blocksparse under cuda-emu: flash_tc walking only the key tiles a block mask
// keeps. Every mask, causal or not, against the float64 reference with masked blocks at -inf; the
// global bytes and tensor FLOPs the emulator counts equal the model exactly (and fall below
// dense flash_tc's); the variant as the harness runs it; the refusals.
#include <gtest/gtest.h>

#include <cstdint>
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

Params point(std::int64_t sq, std::int64_t sk, const std::string& mask, bool causal, const FlashTcTile& t,
             std::int64_t block) {
    const Params p = attention_test::problem_point(1, 2, sq, sk, t.head_dim, causal, "bf16");
    return attention_test::with_tile(attention_test::with_mask(p, mask, block, 1, 0.5), t);
}

const char* const masks[] = {"local", "global", "random", "butterfly"};

// The smallest tile, two per block, over lengths no tile divides; and the three-stage d = 128
// tile (visits go round three buffers), a tile per block.
TEST(CudaEmuAttentionFlashBlocksparse, EveryMaskMatchesTheReferenceAndTheModelsBytes) {
    const FlashTcTile small = attention_cuda::kFlashTcTiles[0];  // d 64, 64/64/4/2
    const FlashTcTile deep = attention_cuda::kFlashTcTiles[5];   // d 128, 128/64/8/3
    ASSERT_EQ(deep.stages, 3);
    struct Case {
        FlashTcTile tile;
        std::int64_t block, sq, sk;
    };
    const Case cases[] = {{small, 128, 300, 300}, {small, 128, 200, 470}, {small, 64, 330, 150}, {deep, 128, 400, 400}};
    for (const Case& c : cases)
        for (const char* mask : masks)
            for (bool causal : {false, true}) {
                const Params pt = point(c.sq, c.sk, mask, causal, c.tile, c.block);
                SCOPED_TRACE(pt.label());
                const AttentionWorkload w(AttentionProblem::from(pt), 7);
                const AttentionProblem& p = w.problem();
                const Outcome r = run_emulated(w, p, c.tile);
                EXPECT_TRUE(r.check.ok) << r.check.message << " error " << r.check.error;
                const FlashTiles t{c.tile.br, c.tile.bc};
                EXPECT_EQ(static_cast<double>(r.traffic.load.bytes),
                          2.0 * static_cast<double>(p.q_size()) + flash_tc_kv_bytes(p, t));
                EXPECT_EQ(r.traffic.store.bytes, 2 * p.q_size());
                AttentionProblem dense = p;
                dense.mask = {};
                if (std::string(mask) != "global") {
                    EXPECT_LT(flash_tc_kv_bytes(p, t), flash_tc_kv_bytes(dense, t));
                }
            }
}

// Dense flash_tc on the masked workload, or another seed's mask, fails the check.
TEST(CudaEmuAttentionFlashBlocksparse, AnotherMaskFailsTheCheck) {
    const FlashTcTile t = attention_cuda::kFlashTcTiles[0];
    const AttentionWorkload w(AttentionProblem::from(point(256, 256, "random", false, t, 64)), 7);
    AttentionProblem dense = w.problem();
    dense.mask = {};
    EXPECT_FALSE(run_emulated(w, dense, t).check.ok);
    AttentionProblem other = w.problem();
    other.mask.seed += 1;
    EXPECT_FALSE(run_emulated(w, other, t).check.ok);
}

// As the harness runs it: the emulated tensor FLOPs and global loads equal the variant's model
// (input_model, the workload's mask), the default emulation sweep is every mask, causal or not.
TEST(CudaEmuAttentionFlashBlocksparse, EmulatedCountersEqualTheModel) {
    Catalogue c;
    register_attention(c);
    const Family& f = c.family("attention");
    const Variant& v = c.variant("attention", "flash_blocksparse", Backend::cuda_emu);
    EXPECT_EQ(v.problem_axes.size(), 4u);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    for (const char* mask : masks)
        for (bool causal : {false, true}) {
            const Params pt = point(256, 256, mask, causal, attention_cuda::kFlashTcTiles[0], 64);
            SCOPED_TRACE(pt.label());
            const auto w = f.make_workload(pt, 5);
            auto inst = v.prepare(*w, pt);
            inst->poison();
            inst->run();
            EXPECT_TRUE(inst->check().ok);
            const std::vector<Counter> measured = inst->measured_counters();
            const std::vector<Counter> model = v.input_model(*w, pt, mh);
            const Counter* emu_flops = find_counter(measured, counters::kFlopsBf16Tensor);
            ASSERT_NE(emu_flops, nullptr);
            EXPECT_EQ(emu_flops->value, find_counter(model, counters::kFlopsBf16Tensor)->value);
            const Counter* loads = find_counter(measured, "emu.global_load_bytes");
            ASSERT_NE(loads, nullptr);
            const AttentionProblem& p = workload_as<AttentionWorkload>(*w).problem();
            EXPECT_EQ(loads->value, 2.0 * static_cast<double>(p.q_size()) + flash_tc_kv_bytes(p, {64, 64}));
            // Compulsory bytes: Q and O, and K and V of the tiles some query tile visits.
            EXPECT_LE(find_counter(model, "bytes.min")->value, attention_compulsory_bytes(p));
        }
}

TEST(CudaEmuAttentionFlashBlocksparse, RefusesTilesThatDoNotNestAndMasksOnOtherKernels) {
    const FlashTcTile t = attention_cuda::kFlashTcTiles[1];  // Br 128
    const AttentionWorkload w(AttentionProblem::from(point(256, 256, "local", false, t, 64)), 7);
    const attention_cuda::Inputs in{w.q().data(), w.k().data(), w.v().data()};
    try {
        attention_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), tuning_of(t), in);
        ADD_FAILURE() << "Br = 128 over blocks of 64 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("divide the block mask's block"), std::string::npos) << e.what();
    }
    Tuning naive;
    naive.algorithm = Algorithm::naive;
    EXPECT_THROW(attention_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), naive, in), std::invalid_argument);
}

}  // namespace
}  // namespace memwall
