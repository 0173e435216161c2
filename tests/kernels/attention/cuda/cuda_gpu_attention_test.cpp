// The CUDA attention variants on a real GPU (the cuda backend). Built always; every test skips
// itself unless a CUDA device is present, so they run only where a GPU is (nvbench's habit).
#include <gtest/gtest.h>

#include <string>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "tests/kernels/attention/attention_points.hpp"
#include "tests/support/gpu_case.hpp"

namespace memwall {
namespace {

class CudaGpuAttention : public ::testing::Test {
  protected:
    void SetUp() override {
        const BackendStatus st = probe_backend(Backend::cuda);
        if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    }
};

Params point(std::int64_t sq, std::int64_t sk, bool causal, const std::string& dtype) {
    return attention_test::problem_point(2, 3, sq, sk, 64, causal, dtype);
}

TEST_F(CudaGpuAttention, EveryVariantMatchesTheReferenceAndTimesWithEvents) {
    Catalogue c;
    register_attention(c);
    const Family& f = c.family("attention");
    for (const char* dtype : {"fp32", "bf16"}) {
        for (bool causal : {false, true}) {
            SCOPED_TRACE(std::string(dtype) + (causal ? " causal" : ""));
            Params flash = point(300, 517, causal, dtype);
            flash.set("Br", std::int64_t{64});
            flash.set("Bc", std::int64_t{32});
            flash.set("warps", std::int64_t{4});
            Params decode = point(1, 4099, causal, dtype);
            decode.set("num_splits", std::int64_t{16});
            const std::pair<const char*, Params> cases[] = {
                {"naive", point(300, 517, causal, dtype)}, {"flash", flash}, {"decode_splitkv", decode}};
            for (const auto& [name, p] : cases) {
                const auto w = f.make_workload(p, 3);
                SCOPED_TRACE(name);
                auto inst = c.variant("attention", name, Backend::cuda).prepare(*w, p);
                test::expect_checked_and_timed(*inst);
            }
        }
    }
}

// topk_sparse: scoring, selection (one and many tiles of selection threads), split attention and
// combine on the device, checked against float64 attention over the keys its scores select, with
// the error against dense attention and the label channels kept with the case.
TEST_F(CudaGpuAttention, TopkSparseMatchesTheReferenceOverItsSelection) {
    Catalogue c;
    register_attention(c);
    const Family& f = c.family("attention");
    for (const std::int64_t threads : {32, 1024}) {
        Params p = point(1, 4099, false, "fp32");
        p.set("outliers", std::int64_t{4});
        p.set("label_channels", std::int64_t{16});
        p.set("sparsity", 0.0625);
        p.set("num_splits", std::int64_t{4});
        p.set("select_threads", threads);
        SCOPED_TRACE(p.label());
        const auto w = f.make_workload(p, 3);
        auto inst = c.variant("attention", "topk_sparse", Backend::cuda).prepare(*w, p);
        inst->poison();
        inst->run();
        const Check ch = inst->check();
        EXPECT_TRUE(ch.ok) << ch.message;
        ASSERT_NE(find_counter(inst->measured_counters(), "approx.rel_l2"), nullptr);
        EXPECT_NE(inst->detail().find("label channels"), std::string::npos);
        EXPECT_GT(inst->run_timed(), 0.0);
    }
}

// flash_tc (bf16 only): every compiled tile, on lengths no tile divides, causal (s_q < s_k) or not.
TEST_F(CudaGpuAttention, FlashTcMatchesTheReferenceWithEveryTile) {
    Catalogue c;
    register_attention(c);
    const Family& f = c.family("attention");
    for (const attention_cuda::FlashTcTile& t : attention_cuda::kFlashTcTiles)
        for (bool causal : {false, true}) {
            const Params p = attention_test::with_tile(point(300, 517, causal, "bf16"), t);
            SCOPED_TRACE(p.label());
            const auto w = f.make_workload(p, 3);
            auto inst = c.variant("attention", "flash_tc", Backend::cuda).prepare(*w, p);
            test::expect_checked_and_timed(*inst);
        }
}

// flash_blocksparse (flash_tc under a block mask): every mask, causal or not, on the tile with
// three stages (visits go round three buffers) and the smallest.
TEST_F(CudaGpuAttention, FlashBlocksparseMatchesTheReferenceWithEveryMask) {
    Catalogue c;
    register_attention(c);
    const Family& f = c.family("attention");
    for (const std::size_t tile : {std::size_t{0}, std::size_t{5}})
        for (const char* mask : {"local", "global", "random", "butterfly"})
            for (bool causal : {false, true}) {
                const attention_cuda::FlashTcTile& t = attention_cuda::kFlashTcTiles[tile];
                const Params p = attention_test::with_tile(
                    attention_test::with_mask(point(1000, 1300, causal, "bf16"), mask, 128, 1, 0.5), t);
                SCOPED_TRACE(p.label());
                const auto w = f.make_workload(p, 3);
                auto inst = c.variant("attention", "flash_blocksparse", Backend::cuda).prepare(*w, p);
                test::expect_checked_and_timed(*inst);
            }
}

}  // namespace
}  // namespace memwall
