// Every emulatable CUDA lora method (base, unfused, fused, multi_adapter) under cuda-emu against
// the float64 reference: M, K and N no multiple of any tile or of 32 (a partial mask word), one
// and three adapters (tiles straddling two adapters' tokens), ranks 16 and 5, tunings at the
// edges of their rules, other block orders, fp32 and bf16; an unwritten output fails the check.
#include <gtest/gtest.h>

#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/lora/cuda/device_case.hpp"
#include "kernels/lora/cuda/traffic_model.hpp"
#include "kernels/lora/lora.hpp"
#include "kernels/lora/register.hpp"
#include "kernels/lora/register_cuda.hpp"
#include "../lora_test_support.hpp"

namespace memwall {
namespace {

using lora_cuda::Method;
using lora_cuda::Tuning;

using lora_test::problem;

std::ostream& operator<<(std::ostream& os, const LoraProblem& p) { return os << lora_test::label(p); }

const char* name(Method m) {
    switch (m) {
        case Method::base: return "base";
        case Method::unfused: return "unfused";
        case Method::fused: return "fused";
        case Method::multi_adapter: return "multi_adapter";
        case Method::cublas_unfused: return "cublas_unfused";
    }
    return "?";
}

// Y (as it downloads: floats) after one forward pass on a poisoned Y.
std::vector<float> forward_emulated(const LoraWorkload& w, Method m, const Tuning& t,
                                    const emu::EmulationOptions& options = {}) {
    auto device = lora_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), m, t, cuda_inputs(w), options);
    device->poison();
    device->run();
    std::vector<float> y(device->output_size());
    device->download(y.data());
    return y;
}

// One forward pass on a poisoned Y, checked (base against X·W alone).
Check run_emulated(const LoraProblem& p, Method m, const Tuning& t, const emu::EmulationOptions& options = {}) {
    const LoraWorkload w(p, 7);
    return check_cuda_output(w, forward_emulated(w, m, t, options).data(), m == Method::base);
}

LoraProblem bf16(LoraProblem p) {
    p.dtype = LoraDtype::bf16;
    return p;
}

const std::vector<LoraProblem> problems = {
    problem(64, 128, 128, 16, 1),  // the emulated default
    problem(37, 45, 29, 5, 3),     // odd everything, three adapters of 12, 12 and 13 tokens
    problem(50, 70, 33, 16, 3),    // row tiles of 8 and 16 straddle adapters
    problem(9, 33, 65, 5, 1),      // fewer tokens than a tile row, a 1-element mask word
    bf16(problem(37, 45, 29, 5, 3)), bf16(problem(50, 70, 33, 16, 3)),
};

Tuning tiling(int bm, int bn, int bk, int tm, int tn) { return {bm, bn, bk, tm, tn}; }

struct Tuned {
    const char* name;
    Tuning tuning;
};

// The default, then the smallest and largest blocks the rules allow and odd depths.
const std::vector<Tuned> tunings = {
    {"default", Tuning{}},
    {"32 threads, 1x8", tiling(16, 16, 4, 1, 8)},
    {"512 threads, BK 5", tiling(32, 64, 5, 2, 2)},
    {"BM 8, 1x1, BK 3", tiling(8, 32, 3, 1, 1)},
};

struct Case {
    Method method;
    LoraProblem problem;
    Tuned tuned;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
    return os << name(c.method) << ", " << c.tuned.name << ", " << c.problem << " " << lora_dtype_name(c.problem.dtype);
}

std::vector<Case> cases() {
    std::vector<Case> out;
    for (Method m : {Method::base, Method::unfused, Method::fused, Method::multi_adapter})
        for (const Tuned& t : tunings)
            for (const LoraProblem& p : problems) out.push_back({m, p, t});
    return out;
}

class CudaEmuLora : public ::testing::TestWithParam<Case> {};

TEST_P(CudaEmuLora, MatchesReference) {
    const Case& c = GetParam();
    const Check ch = run_emulated(c.problem, c.method, c.tuned.tuning);
    EXPECT_TRUE(ch.ok) << ch.message << " error " << ch.error;
}

INSTANTIATE_TEST_SUITE_P(MethodsTuningsAndProblems, CudaEmuLora, ::testing::ValuesIn(cases()));

// multi_adapter's adapter grouping: calls of 1 adapter, of 2 (the last takes the third alone),
// and of more than the batch has, fp32 and bf16.
TEST(CudaEmuLora, MultiAdapterGroupsOfAnySize) {
    for (const LoraProblem& p : {problems[1], problems[5]})
        for (int group : {1, 2, 5}) {
            Tuning t = tiling(16, 16, 4, 1, 8);
            t.group = group;
            const Check c = run_emulated(p, Method::multi_adapter, t);
            EXPECT_TRUE(c.ok) << "group " << group << " " << lora_dtype_name(p.dtype) << ": " << c.message;
        }
}

// Shared memory persists from block to block in emulation: other orders, with poisoning, expose a
// block that reads tile entries (or row adapters) it did not write.
TEST(CudaEmuLoraOrder, ReverseAndShuffledBlocks) {
    for (emu::BlockOrder order : {emu::BlockOrder::reverse, emu::BlockOrder::shuffled}) {
        emu::EmulationOptions options;
        options.order = order;
        options.seed = 3;
        for (Method m : {Method::fused, Method::multi_adapter}) {
            const Check c = run_emulated(problems[2], m, tiling(8, 32, 3, 1, 1), options);
            EXPECT_TRUE(c.ok) << name(m) << ": " << c.message;
        }
    }
}

TEST(CudaEmuLora, AnOutputNeverWrittenFailsTheCheck) {
    const LoraProblem p = problems[1];
    const LoraWorkload w(p, 1);
    auto device = lora_cuda::cuda_emu::make_device_case(cuda_shape(p), Method::fused, Tuning{}, cuda_inputs(w));
    device->poison();
    std::vector<float> y(device->output_size());
    device->download(y.data());
    EXPECT_FALSE(check_cuda_output(w, y.data(), false).ok);
}

// The base GEMM's output is X·W alone: checked as the full LoRA output it fails, so the check
// really tells the adapters' term apart.
TEST(CudaEmuLora, BaseIsNotTheLoraOutput) {
    const LoraProblem p = problems[0];
    const LoraWorkload w(p, 2);
    const std::vector<float> y = forward_emulated(w, Method::base, Tuning{});
    EXPECT_TRUE(check_cuda_output(w, y.data(), true).ok);
    EXPECT_FALSE(check_cuda_output(w, y.data(), false).ok);
}

TEST(CudaEmuLora, BrokenRulesAreRefused) {
    const LoraProblem p = problems[1];
    const LoraWorkload w(p, 1);
    EXPECT_THROW(
        lora_cuda::cuda_emu::make_device_case(cuda_shape(p), Method::fused, tiling(64, 64, 8, 3, 4), cuda_inputs(w)),
        std::invalid_argument);
    EXPECT_THROW(lora_cuda::cuda_emu::make_device_case(cuda_shape(p), Method::cublas_unfused, Tuning{}, cuda_inputs(w)),
                 std::invalid_argument);
}

// A bf16 Y comes down widened to floats; the check narrows it back exactly, so one flipped bit
// of one element is still an error the check sees, and a correct Y passes.
TEST(CudaEmuLora, Bf16OutputIsCheckedBitForBit) {
    const LoraProblem p = bf16(problems[0]);
    const LoraWorkload w(p, 4);
    std::vector<float> y = forward_emulated(w, Method::fused, Tuning{});
    EXPECT_TRUE(check_cuda_output(w, y.data(), false).ok);
    y[5] = std::numeric_limits<float>::infinity();
    EXPECT_FALSE(check_cuda_output(w, y.data(), false).ok);
}

// The catalogue: the four emulatable methods and their tensor-core versions on cuda-emu and cuda,
// cublas_unfused on cuda only, and a cuda-emu instance as the harness drives it.
TEST(CudaEmuLoraRegister, VariantsBackendsAndAnInstance) {
    Catalogue c;
    register_lora(c);
    for (const char* v : {"base", "unfused", "fused", "multi_adapter"}) {
        EXPECT_TRUE(c.variant("lora", v, Backend::cuda_emu).gpu_only_reason.empty()) << v;
        const std::string& d = c.variant("lora", v, Backend::cuda).description;
        EXPECT_NE(d.find("matched the reference on an NVIDIA H100"), std::string::npos) << v;
    }
    EXPECT_FALSE(c.variant("lora", "cublas_unfused", Backend::cuda).gpu_only_reason.empty());
    for (const char* v : {"base_tc", "unfused_tc", "fused_tc", "multi_adapter_tc"}) {
        const Variant& tc = c.variant("lora", v, Backend::cuda_emu);
        EXPECT_TRUE(tc.gpu_only_reason.empty()) << v;
        EXPECT_EQ(c.variant("lora", v, Backend::cuda).default_axes, std::vector<std::string>{"dtype=bf16"}) << v;
        EXPECT_NE(c.variant("lora", v, Backend::cuda).description.find("mma.sync m16n8k16"), std::string::npos) << v;
        // A sweep of both dtypes, or of sizes not multiples of 8, keeps only their points (not
        // failed cases).
        Params fp32, bf16;
        fp32.set("dtype", std::string("fp32"));
        bf16.set("dtype", std::string("bf16"));
        ASSERT_EQ(tc.constraints.size(), 3u) << v;
        EXPECT_FALSE(tc.constraints[0].allows(fp32)) << v;
        EXPECT_TRUE(tc.constraints[0].allows(bf16)) << v;
        Params odd;
        for (const auto& [k, x] : {std::pair{"K", 72}, {"N", 45}, {"r", 16}}) odd.set(k, std::int64_t{x});
        EXPECT_FALSE(tc.constraints[1].allows(odd)) << v;
    }
    Params p;
    for (const auto& [k, v] : {std::pair{"M", 37},
                               {"K", 45},
                               {"N", 29},
                               {"r", 5},
                               {"adapters", 3},
                               {"BM", 16},
                               {"BN", 16},
                               {"BK", 4},
                               {"TM", 1},
                               {"TN", 8}})
        p.set(k, std::int64_t{v});
    p.set("shape", std::string("custom"));
    p.set("dropout", 0.1);
    p.set("alpha", 16.0);
    p.set("dtype", std::string("fp32"));
    const auto w = c.family("lora").make_workload(p, 5);
    auto inst = c.variant("lora", "multi_adapter", Backend::cuda_emu).prepare(*w, p);
    inst->poison();
    inst->run();
    const Check ch = inst->check();
    EXPECT_TRUE(ch.ok) << ch.message;

    // The FLOPs on tensor cores, for the roofline's tensor roof: cublas_unfused's all in bf16,
    // none in fp32 or on the FMA variants; the *_tc variants' whole tiles (at tile multiples,
    // X·W's exactly, and S·B_a's r padded to one 32-deep stage).
    auto tensor_flops = [&](const char* v, const char* dtype, Params q) {
        q.set("group", std::int64_t{8});
        q.set("dtype", std::string(dtype));
        const auto model = c.variant("lora", v, Backend::cuda).model(q, MemoryHierarchy{});
        const Counter* t = find_counter(model, counters::kFlopsBf16Tensor);
        return t ? t->value : -1.0;
    };
    EXPECT_DOUBLE_EQ(tensor_flops("cublas_unfused", "bf16", p), 2.0 * 37 * (45 * 29 + 45 * 5 + 5 * 29));
    EXPECT_EQ(tensor_flops("cublas_unfused", "fp32", p), -1.0);
    EXPECT_EQ(tensor_flops("fused", "bf16", p), -1.0);
    Params tiles = p;
    for (const auto& [k, v] : {std::pair{"M", 256},
                               {"K", 64},
                               {"N", 128},
                               {"r", 16},
                               {"adapters", 1},
                               {"BM", 128},
                               {"BN", 128},
                               {"warps", 8},
                               {"stages", 3}})
        tiles.set(k, std::int64_t{v});
    EXPECT_DOUBLE_EQ(tensor_flops("base_tc", "bf16", tiles), 2.0 * 256 * 128 * 64);
    // fused_tc and multi_adapter_tc: the down-projection's 2·M·K·r (r = 16, no padding) besides.
    EXPECT_DOUBLE_EQ(tensor_flops("fused_tc", "bf16", tiles), 2.0 * 256 * 128 * (64 + 32) + 2.0 * 256 * 64 * 16);
    EXPECT_DOUBLE_EQ(tensor_flops("multi_adapter_tc", "bf16", tiles),
                     2.0 * 256 * 128 * (64 + 32) + 2.0 * 256 * 64 * 16);
}

}  // namespace
}  // namespace memwall
