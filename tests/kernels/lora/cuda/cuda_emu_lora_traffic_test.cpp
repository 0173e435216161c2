// Global-memory traffic of the CUDA lora methods under cuda-emu: exact byte counts against closed
// forms written here from the kernels' structure (the down-projection, the base GEMM, unfused's
// passes), and against the family's traffic model (lora_cuda_traffic), which must predict the
// emulator's loads and stores to the byte.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../lora_test_support.hpp"
#include "cuda_emu/traffic.hpp"
#include "kernels/lora/cuda/device_case.hpp"
#include "kernels/lora/cuda/traffic_model.hpp"
#include "kernels/lora/lora.hpp"
#include "kernels/lora/register_cuda.hpp"
#include "tests/support/emu_traffic.hpp"

namespace memwall {
namespace {

using lora_cuda::Method;
using lora_cuda::Tuning;
using U = std::uint64_t;

using lora_test::label;
using lora_test::problem;

const std::vector<LoraProblem> problems = {problem(64, 128, 128, 16, 1), problem(37, 45, 29, 5, 3),
                                           problem(50, 70, 33, 16, 3)};
const std::vector<Tuning> tunings = {Tuning{}, {16, 16, 4, 1, 8}, {8, 32, 3, 1, 1}};

U ceil_div(U a, U b) { return (a + b - 1) / b; }
U u(std::int64_t x) { return static_cast<U>(x); }

using Traffic = test::EmuTraffic;

// One checked forward pass.
Traffic run(const LoraProblem& p, Method m, const Tuning& t) {
    const LoraWorkload w(p, 5);
    auto device = lora_cuda::cuda_emu::make_device_case(cuda_shape(p), m, t, cuda_inputs(w));
    const Traffic x = test::counted_run(*device);
    EXPECT_TRUE(check_cuda_output(w, x.output.data(), m == Method::base).ok);
    EXPECT_TRUE(x.all.counted);
    EXPECT_EQ(x.all.atomic.bytes, 0u);
    return x;
}

// The model's loads and stores are the emulator's, byte for byte.
void expect_model(const LoraProblem& p, Method m, const Tuning& t, const emu::TrafficStats& s) {
    const LoraCudaTraffic model = lora_cuda_traffic(p, m, t);
    EXPECT_EQ(static_cast<double>(s.load.bytes), model.loads);
    EXPECT_EQ(static_cast<double>(s.store.bytes), model.stores);
}

// The down-projection (fused with one adapter: its first launch) reads X and each mask word
// once, A once per token (L1 serves the repeats), and writes S once; dropout's X' never exists.
TEST(CudaEmuLoraTraffic, DownProjectionReadsXAndTheMaskOnceAndWritesSOnce) {
    for (const LoraProblem& p : {problem(64, 128, 128, 16, 1), problem(37, 45, 29, 5, 1), problem(9, 33, 65, 40, 1)}) {
        SCOPED_TRACE(label(p));
        const Traffic x = run(p, Method::fused, Tuning{});
        EXPECT_EQ(x.all.launches, 2u);
        const U m = u(p.m), k = u(p.k), r = u(p.r), words = u(p.mask_words());
        EXPECT_EQ(x.all.load.bytes - x.last.load.bytes, 4 * (m * k + m * words + m * k * r));
        EXPECT_EQ(x.all.store.bytes - x.last.store.bytes, 4 * m * r);
    }
}

// base: every tile of BN columns reads X's rows once, every tile of BM rows W's columns; Y is
// stored once.
TEST(CudaEmuLoraTraffic, BaseGemmMovesItsClosedForm) {
    for (const LoraProblem& p : problems)
        for (const Tuning& t : tunings) {
            SCOPED_TRACE(label(p) + " BM " + std::to_string(t.bm) + " BN " + std::to_string(t.bn));
            const Traffic x = run(p, Method::base, t);
            const U m = u(p.m), k = u(p.k), n = u(p.n);
            EXPECT_EQ(x.all.launches, 1u);
            EXPECT_EQ(x.all.load.bytes, 4 * (ceil_div(n, u(t.bn)) * m * k + ceil_div(m, u(t.bm)) * k * n));
            EXPECT_EQ(x.all.store.bytes, 4 * m * n);
            expect_model(p, Method::base, t, x.all);
        }
}

// unfused's last pass, Y += α·T, reads Y and T and writes Y: two more passes over Y's size that
// fused's epilogue does not make.
TEST(CudaEmuLoraTraffic, UnfusedScaledAddReadsYAndTAndWritesY) {
    const LoraProblem p = problems[1];
    const Traffic x = run(p, Method::unfused, Tuning{});
    EXPECT_EQ(x.all.launches, 3u + 2u * u(p.adapters));
    EXPECT_EQ(x.last.load.bytes, 8 * u(p.m * p.n));
    EXPECT_EQ(x.last.store.bytes, 4 * u(p.m * p.n));
}

TEST(CudaEmuLoraTraffic, ModelPredictsEveryMethodsBytes) {
    for (Method m : {Method::unfused, Method::fused, Method::multi_adapter})
        for (const LoraProblem& p : problems)
            for (const Tuning& t : tunings) {
                SCOPED_TRACE(label(p) + " method " + std::to_string(static_cast<int>(m)) + " BM " +
                             std::to_string(t.bm));
                expect_model(p, m, t, run(p, m, t).all);
            }
}

// multi_adapter in groups of 1 and 2 adapters: the model follows the emulator call by call, and
// calls of one adapter stream W once each, as fused does.
TEST(CudaEmuLoraTraffic, ModelFollowsMultiAdapterGroups) {
    for (int group : {1, 2}) {
        Tuning t = tunings[2];
        t.group = group;
        SCOPED_TRACE("group " + std::to_string(group));
        const Traffic x = run(problems[1], Method::multi_adapter, t);
        expect_model(problems[1], Method::multi_adapter, t, x.all);
        EXPECT_EQ(x.all.launches, 2u * static_cast<U>(t.calls(3)));
    }
}

// bf16 halves every element's bytes but the mask's words and the adapters' ids: the model
// follows the emulator there too, and a bf16 case moves fewer bytes than its fp32 twin.
TEST(CudaEmuLoraTraffic, Bf16ModelPredictsEveryMethodsBytes) {
    for (Method m : {Method::base, Method::unfused, Method::fused, Method::multi_adapter})
        for (LoraProblem p : {problems[1], problems[2]}) {
            const Traffic fp32 = run(p, m, tunings[1]);
            p.dtype = LoraDtype::bf16;
            SCOPED_TRACE(label(p) + " bf16 method " + std::to_string(static_cast<int>(m)));
            const Traffic half = run(p, m, tunings[1]);
            expect_model(p, m, tunings[1], half.all);
            EXPECT_LT(half.all.load.bytes, fp32.all.load.bytes);
            EXPECT_EQ(2 * half.all.store.bytes, fp32.all.store.bytes);
        }
}

// fused stores Y once and never reads it; unfused stores it twice and reads it once, and writes
// and reads X', S and T besides.
TEST(CudaEmuLoraTraffic, FusedMovesFewerBytesThanUnfused) {
    const LoraProblem p = problems[0];
    const Traffic fused = run(p, Method::fused, Tuning{}), unfused = run(p, Method::unfused, Tuning{});
    EXPECT_LT(fused.all.store.bytes, unfused.all.store.bytes);
    EXPECT_LT(fused.all.dram_read_bytes + fused.all.dram_write_bytes,
              unfused.all.dram_read_bytes + unfused.all.dram_write_bytes);
}

}  // namespace
}  // namespace memwall
