// Every CUDA kv_offload variant (resident, zero_copy, staged, pipelined) under cuda-emu against
// the float64 reference: head_dim 32 to 256, pages of 3 to 16 tokens, one to eight pages a step,
// tunings with empty partials, one warp per head, chunks that do not divide the selection, and
// misaligned zero-copy pages; other block orders; an unwritten output and broken rules refused;
// the catalogue's variants and an instance as the harness drives it.
#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/kv_offload/register.hpp"
#include "kv_cuda_test_support.hpp"

namespace memwall {
namespace {

using namespace kv_cuda_test;

struct Tuned {
    const char* name;
    Tuning tuning;
};

const std::vector<Tuned> tunings = {
    {"default", Tuning{}},
    {"one warp a head, chunks of 1", {1, 1, 0, 1}},
    {"3 x 2 partials, chunks of 3, misaligned by 4", {3, 2, 4, 3}},
    {"16 x 8 partials, most empty, misaligned by 64", {16, 8, 64, 2}},
};

struct Case {
    Method method;
    KvProblem problem;
    Tuned tuned;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
    return os << name(c.method) << ", " << c.tuned.name << ", " << label(c.problem);
}

std::vector<Case> cases() {
    std::vector<Case> out;
    for (Method m : methods)
        for (const Tuned& t : tunings)
            for (const KvProblem& p : problems) out.push_back({m, p, t});
    return out;
}

class CudaEmuKvOffload : public ::testing::TestWithParam<Case> {};

TEST_P(CudaEmuKvOffload, MatchesReference) {
    const Case& c = GetParam();
    const Emulated r = run_emulated(c.problem, c.method, c.tuned.tuning);
    EXPECT_TRUE(r.check.ok) << r.check.message << " error " << r.check.error;
}

INSTANTIATE_TEST_SUITE_P(MethodsTuningsAndProblems, CudaEmuKvOffload, ::testing::ValuesIn(cases()));

// The kernels keep nothing in shared memory, but their partials must not depend on which block
// ran first either.
TEST(CudaEmuKvOffloadOrder, ReverseAndShuffledBlocks) {
    for (emu::BlockOrder order : {emu::BlockOrder::reverse, emu::BlockOrder::shuffled}) {
        emu::EmulationOptions options;
        options.order = order;
        options.seed = 3;
        for (Method m : methods) {
            const Emulated r = run_emulated(problems[1], m, {3, 2, 0, 3}, options);
            EXPECT_TRUE(r.check.ok) << name(m) << ": " << r.check.message;
        }
    }
}

TEST(CudaEmuKvOffload, AnOutputNeverWrittenFailsTheCheck) {
    kv_test::ScratchDir dir;
    const KvProblem p = problems[0];
    const KvWorkload w(p, 1, dir.path);
    std::vector<std::int32_t> ids;
    auto device = kv_cuda::cuda_emu::make_device_case(cuda_shape(p), Method::zero_copy, Tuning{}, cuda_inputs(w, ids));
    device->poison();
    std::vector<float> out(device->output_size());
    device->download(out.data());
    EXPECT_FALSE(w.check(out.data()).ok);
}

TEST(CudaEmuKvOffload, BrokenRulesAreRefused) {
    kv_test::ScratchDir dir;
    const KvProblem p = problems[0];
    const KvWorkload w(p, 1, dir.path);
    std::vector<std::int32_t> ids;
    const kv_cuda::Inputs in = cuda_inputs(w, ids);
    const auto refused = [&](kv_cuda::Shape s, Tuning t, const char* rule) {
        try {
            (void)kv_cuda::cuda_emu::make_device_case(s, Method::zero_copy, t, in);
            ADD_FAILURE() << "accepted: " << rule;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(rule), std::string::npos) << e.what();
        }
    };
    kv_cuda::Shape s = cuda_shape(p);
    refused(s, {8, 4, 6, 4}, "misalign must be a multiple of 4");
    refused(s, {8, 4, 128, 4}, "misalign must be a multiple of 4 bytes below 128");
    refused(s, {8, 33, 0, 4}, "warps must be 1 to 32");
    refused(s, {0, 4, 0, 4}, "splits must be 1 to 1024");
    refused(s, {8, 4, 0, 0}, "chunk_pages");
    s.head_dim = 48;
    refused(s, Tuning{}, "head_dim must be 32, 64, 128 or 256");
}

using kv_test::catalogue;

Params point() {
    Params p = kv_test::small_params();
    p.set("context", std::int64_t{256});
    p.set("page_tokens", std::int64_t{16});
    p.set("head_dim", std::int64_t{64});
    p.set("steps", std::int64_t{2});
    p.set("splits", std::int64_t{2});
    p.set("warps", std::int64_t{2});
    return p;
}

// The catalogue: every variant on cuda-emu and cuda, with its own tunables; a cuda-emu instance
// as the harness drives it, its emu counters naming the host sectors for zero_copy only.
TEST(CudaEmuKvOffloadRegister, VariantsBackendsAndInstances) {
    const Catalogue& c = catalogue();
    for (Method m : methods) {
        EXPECT_TRUE(c.variant("kv_offload", name(m), Backend::cuda_emu).gpu_only_reason.empty()) << name(m);
        EXPECT_NE(
            c.variant("kv_offload", name(m), Backend::cuda).description.find("matched the reference on an NVIDIA H100"),
            std::string::npos);
    }
    const auto has_tunable = [&](const char* variant, const char* axis) {
        for (const Axis& a : c.variant("kv_offload", variant, Backend::cuda_emu).tunables)
            if (a.name == axis) return true;
        return false;
    };
    EXPECT_TRUE(has_tunable("zero_copy", "misalign"));
    EXPECT_FALSE(has_tunable("resident", "misalign"));
    EXPECT_TRUE(has_tunable("pipelined", "chunk_pages"));
    EXPECT_TRUE(has_tunable("staged", "splits"));

    kv_test::ScratchDir dir;
    ::setenv("MEMWALL_SCRATCH", dir.path.c_str(), 1);
    for (Method m : methods) {
        SCOPED_TRACE(name(m));
        Params p = point();
        if (m == Method::zero_copy) p.set("misalign", std::int64_t{4});
        if (m == Method::pipelined) p.set("chunk_pages", std::int64_t{3});
        const auto w = c.family("kv_offload").make_workload(p, 5);
        auto inst = c.variant("kv_offload", name(m), Backend::cuda_emu).prepare(*w, p);
        inst->poison();
        inst->run();
        const Check ch = inst->check();
        EXPECT_TRUE(ch.ok) << ch.message;
        const std::vector<Counter> cs = inst->measured_counters();
        EXPECT_EQ(find_counter(cs, "emu.host_sectors_read") != nullptr, m == Method::zero_copy);
    }
    ::unsetenv("MEMWALL_SCRATCH");
    EXPECT_EQ(dir.files(), 0u);
}

}  // namespace
}  // namespace memwall
