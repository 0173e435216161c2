// Every CUDA attention algorithm under cuda-emu against the float64 reference, in fp32 and
// bf16: causal and not, lengths that are not multiples of the tiles, several tile
// configurations and split counts, and other block orders.
#include <gtest/gtest.h>

#include <ostream>
#include <vector>

#include "cuda_emu/bfloat16.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {
namespace {

using attention_cuda::Algorithm;
using attention_cuda::Tuning;

struct Problem {
    int seq_q, seq_k;
    bool causal;
    int head_dim = 64;
    AttentionDtype dtype = AttentionDtype::fp32;
};

std::ostream& operator<<(std::ostream& os, const Problem& p) {
    return os << "s_q " << p.seq_q << " s_k " << p.seq_k << (p.causal ? " causal" : "") << " d " << p.head_dim
              << (p.dtype == AttentionDtype::bf16 ? " bf16" : "");
}

constexpr AttentionDtype kBf16 = AttentionDtype::bf16;

AttentionProblem problem_of(const Problem& x) {
    return attention_test::problem(1, 2, x.seq_q, x.seq_k, x.head_dim, x.causal, x.dtype);
}

// Runs one forward pass on a poisoned output and checks it.
Check run_emulated(const Problem& x, const Tuning& t, const emu::EmulationOptions& options = {}) {
    const AttentionWorkload w(problem_of(x), 7);
    auto device = attention_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), t,
                                                             {w.q().data(), w.k().data(), w.v().data()}, options);
    device->poison();
    device->run();
    std::vector<float> o(w.problem().q_size());
    device->download(o.data());
    return w.check(o.data());
}

// Causal cases include s_q > s_k, where the first query rows see no key and output zeros.
// bf16 problems are checked against bf16's bound (AttentionWorkload::kBf16Tolerance).
const std::vector<Problem> problems = {
    {64, 64, false},
    {64, 64, true},
    {37, 100, true},
    {100, 37, true},
    {50, 77, false},
    {33, 33, true, 128},
    {64, 64, false, 64, kBf16},
    {100, 37, true, 64, kBf16},
    {33, 33, true, 128, kBf16},
};

class CudaEmuAttentionNaive : public ::testing::TestWithParam<Problem> {};

TEST_P(CudaEmuAttentionNaive, MatchesReference) {
    const Check c = run_emulated(GetParam(), Tuning{.algorithm = Algorithm::naive});
    EXPECT_TRUE(c.ok) << c.message << " error " << c.error;
}

INSTANTIATE_TEST_SUITE_P(Problems, CudaEmuAttentionNaive, ::testing::ValuesIn(problems));

struct FlashCase {
    Problem problem;
    int br, bc, warps;
};

std::ostream& operator<<(std::ostream& os, const FlashCase& c) {
    return os << c.problem << " Br " << c.br << " Bc " << c.bc << " warps " << c.warps;
}

std::vector<FlashCase> flash_cases() {
    std::vector<FlashCase> out;
    for (const Problem& p : {Problem{100, 100, false}, Problem{100, 100, true}, Problem{37, 130, true},
                             Problem{130, 37, true}, Problem{48, 80, false, 128}})
        for (auto [br, bc, warps] : {std::tuple{16, 16, 1}, {32, 16, 4}, {64, 32, 2}, {16, 64, 4}, {48, 16, 3}})
            out.push_back({p, br, bc, warps});
    for (const Problem& p :
         {Problem{100, 100, true, 64, kBf16}, Problem{130, 37, true, 64, kBf16}, Problem{48, 80, false, 128, kBf16}})
        for (auto [br, bc, warps] : {std::tuple{32, 16, 4}, {48, 16, 3}}) out.push_back({p, br, bc, warps});
    return out;
}

class CudaEmuAttentionFlash : public ::testing::TestWithParam<FlashCase> {};

TEST_P(CudaEmuAttentionFlash, MatchesReference) {
    const FlashCase& f = GetParam();
    const Check c =
        run_emulated(f.problem, Tuning{.algorithm = Algorithm::flash, .br = f.br, .bc = f.bc, .warps = f.warps});
    EXPECT_TRUE(c.ok) << c.message << " error " << c.error;
}

INSTANTIATE_TEST_SUITE_P(TilesAndProblems, CudaEmuAttentionFlash, ::testing::ValuesIn(flash_cases()));

// Shared memory persists from block to block in emulation: other orders, with poisoning,
// expose a block that reads tile entries it did not write.
TEST(CudaEmuAttentionFlashOrder, ReverseAndShuffledBlocks) {
    for (emu::BlockOrder order : {emu::BlockOrder::reverse, emu::BlockOrder::shuffled}) {
        emu::EmulationOptions options;
        options.order = order;
        options.seed = 3;
        const Check c = run_emulated({90, 90, true},
                                     Tuning{.algorithm = Algorithm::flash, .br = 32, .bc = 32, .warps = 2}, options);
        EXPECT_TRUE(c.ok) << c.message;
    }
}

struct DecodeCase {
    int seq_k, splits;
    bool causal;
    int head_dim = 64;
    AttentionDtype dtype = AttentionDtype::fp32;
};

std::ostream& operator<<(std::ostream& os, const DecodeCase& c) {
    return os << "s_k " << c.seq_k << " splits " << c.splits << (c.causal ? " causal" : "") << " d " << c.head_dim
              << (c.dtype == AttentionDtype::bf16 ? " bf16" : "");
}

class CudaEmuAttentionDecode : public ::testing::TestWithParam<DecodeCase> {};

TEST_P(CudaEmuAttentionDecode, MatchesReference) {
    const DecodeCase& d = GetParam();
    const Check c = run_emulated({1, d.seq_k, d.causal, d.head_dim, d.dtype},
                                 Tuning{.algorithm = Algorithm::decode_splitkv, .splits = d.splits});
    EXPECT_TRUE(c.ok) << c.message << " error " << c.error;
}

// 10 keys in 6 splits: chunks of 2, so the last split has no key and must not count.
INSTANTIATE_TEST_SUITE_P(Splits, CudaEmuAttentionDecode,
                         ::testing::Values(DecodeCase{1, 1, false}, DecodeCase{200, 1, false}, DecodeCase{200, 3, true},
                                           DecodeCase{257, 8, false}, DecodeCase{300, 2, false, 128},
                                           DecodeCase{10, 6, false}, DecodeCase{257, 64, true},
                                           DecodeCase{257, 8, false, 64, kBf16}, DecodeCase{300, 2, true, 128, kBf16}));

TEST(CudaEmuAttention, AnOutputNeverWrittenFailsTheCheck) {
    for (AttentionDtype dtype : {AttentionDtype::fp32, kBf16}) {
        const AttentionWorkload w(problem_of({16, 16, false, 64, dtype}), 1);
        auto device = attention_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), Tuning{},
                                                                 {w.q().data(), w.k().data(), w.v().data()});
        device->poison();
        std::vector<float> o(w.problem().q_size());
        device->download(o.data());
        EXPECT_FALSE(w.check(o.data()).ok);
    }
}

// The bf16 kernels store rounded outputs: their error is that of the rounding, above fp32's
// bound (so the bf16 path really ran) and below bf16's.
TEST(CudaEmuAttention, Bf16OutputsAreRoundedToBf16) {
    const AttentionWorkload w(problem_of({40, 40, false, 64, kBf16}), 2);
    auto device = attention_cuda::cuda_emu::make_device_case(
        cuda_shape(w.problem()), Tuning{.algorithm = Algorithm::flash, .br = 16, .bc = 16, .warps = 1},
        {w.q().data(), w.k().data(), w.v().data()});
    device->poison();
    device->run();
    std::vector<float> o(w.problem().q_size());
    device->download(o.data());
    for (float e : o) ASSERT_EQ(__bfloat162float(__float2bfloat16_rn(e)), e);
    const Check c = w.check(o.data());
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_GT(c.error, AttentionWorkload::kFp32Tolerance);
}

TEST(CudaEmuAttention, RejectsConfigurationsTheKernelsCannotRun) {
    const attention_cuda::Inputs none;
    attention_cuda::Shape s;
    s.seq_q = 4;
    EXPECT_THROW(attention_cuda::cuda_emu::make_device_case(s, Tuning{.algorithm = Algorithm::decode_splitkv}, none),
                 std::invalid_argument);
    EXPECT_THROW(attention_cuda::cuda_emu::make_device_case(s, Tuning{.br = 30, .warps = 4}, none),
                 std::invalid_argument);
    s.head_dim = 128;
    EXPECT_THROW(attention_cuda::cuda_emu::make_device_case(s, Tuning{.br = 128, .bc = 128, .warps = 4}, none),
                 std::invalid_argument);
}

}  // namespace
}  // namespace memwall
