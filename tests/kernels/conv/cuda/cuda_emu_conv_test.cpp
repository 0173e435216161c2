// Every emulatable CUDA conv kernel (direct, im2win, implicit_gemm) under cuda-emu against the
// float64 reference: strides 1, 2 and 4, padding, non-square images and filters, channel and
// filter counts that are no multiple of 4, 8 or 16, filters larger than a tile, several images,
// tunings at the edges of their rules, and other block orders.
#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>
#include <vector>

#include "kernels/conv/conv.hpp"
#include "kernels/conv/cuda/device_case.hpp"
#include "kernels/conv/register_cuda.hpp"
#include "tests/kernels/conv/cuda/conv_tunings.hpp"

namespace memwall {
namespace {

using conv_cuda::Algorithm;
using conv_cuda::Tuning;
using conv_test::direct;
using conv_test::gemm;
using conv_test::im2win;

std::ostream& operator<<(std::ostream& os, const ConvProblem& p) {
    return os << "N" << p.n << " C" << p.c << " " << p.h << "x" << p.w << " K" << p.k << " " << p.r << "x" << p.s
              << " stride " << p.stride << " pad " << p.pad;
}

ConvProblem problem(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t r,
                    std::int64_t s, std::int64_t stride, std::int64_t pad) {
    return {n, c, h, w, k, r, s, stride, pad};
}

// One forward pass on a poisoned output, checked.
Check run_emulated(const ConvProblem& p, const Tuning& t, const emu::EmulationOptions& options = {}) {
    const ConvWorkload w(p, 7);
    auto device = conv_cuda::cuda_emu::make_device_case(cuda_shape(p), t, {w.input(), w.filter()}, options);
    device->poison();
    device->run();
    std::vector<float> out(p.output_size());
    device->download(out.data());
    return w.check(out.data());
}

const std::vector<ConvProblem> problems = {
    problem(1, 3, 16, 16, 16, 3, 3, 1, 1),    // the emulated default
    problem(2, 5, 13, 17, 7, 3, 3, 2, 1),     // two images, non-square, C and K odd
    problem(1, 13, 23, 19, 9, 5, 5, 4, 2),    // stride 4 with padding
    problem(1, 3, 27, 27, 10, 11, 11, 4, 0),  // conv1's filter: larger than a window tile
    problem(2, 6, 9, 12, 5, 3, 5, 1, 2),      // non-square filter, wide padding
    problem(1, 17, 11, 11, 33, 1, 1, 2, 0),   // 1x1 at stride 2: windows with gaps
    problem(3, 2, 7, 5, 3, 7, 5, 1, 0),       // the filter covers the image: one output pixel
};

struct Tuned {
    const char* name;
    Tuning tuning;
};

std::ostream& operator<<(std::ostream& os, const Tuned& t) { return os << t.name; }

// Defaults, then the smallest and largest blocks the rules allow, odd depths and channel stages.
const std::vector<Tuned> tunings = {
    {"direct default", Tuning{Algorithm::direct}},
    {"direct 32 threads x 1 filter", direct(32, 1)},
    {"direct 1024 threads x 8 filters", direct(1024, 8)},
    {"direct 64 threads x 2 filters", direct(64, 2)},
    {"im2win default", Tuning{Algorithm::im2win}},
    {"im2win 32 threads, 1 row, 1 channel", im2win(4, 1, 32, 1, 4)},
    {"im2win 8x2x8 tiles, 3 channels, 1 filter", im2win(8, 2, 8, 3, 1)},
    {"im2win 1024 threads", im2win(64, 1, 32, 1, 2)},
    {"im2win 8 filters per thread", im2win(16, 8, 4, 2, 8)},
    {"implicit_gemm default", Tuning{Algorithm::implicit_gemm}},
    {"implicit_gemm 32 threads, 1x8", gemm(16, 16, 4, 1, 8)},
    {"implicit_gemm 128x64x16, 8x4", gemm(128, 64, 16, 8, 4)},
    {"implicit_gemm 1024 threads, odd BK", gemm(64, 128, 3, 2, 4)},
    {"implicit_gemm BM 8, 1x1", gemm(8, 32, 5, 1, 1)},
};

struct Case {
    ConvProblem problem;
    Tuned tuned;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.tuned << ", " << c.problem; }

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const Tuned& t : tunings)
        for (const ConvProblem& p : problems) out.push_back({p, t});
    return out;
}

class CudaEmuConv : public ::testing::TestWithParam<Case> {};

TEST_P(CudaEmuConv, MatchesReference) {
    const Check c = run_emulated(GetParam().problem, GetParam().tuned.tuning);
    EXPECT_TRUE(c.ok) << c.message << " error " << c.error;
}

INSTANTIATE_TEST_SUITE_P(TuningsAndProblems, CudaEmuConv, ::testing::ValuesIn(cases()));

// Shared memory persists from block to block in emulation: other orders, with poisoning,
// expose a block that reads tile entries it did not write.
TEST(CudaEmuConvOrder, ReverseAndShuffledBlocks) {
    for (emu::BlockOrder order : {emu::BlockOrder::reverse, emu::BlockOrder::shuffled}) {
        emu::EmulationOptions options;
        options.order = order;
        options.seed = 3;
        for (const Tuning& t : {im2win(8, 2, 8, 3, 1), gemm(16, 16, 4, 1, 8)}) {
            const Check c = run_emulated(problems[1], t, options);
            EXPECT_TRUE(c.ok) << c.message;
        }
    }
}

TEST(CudaEmuConv, AnOutputNeverWrittenFailsTheCheck) {
    const ConvProblem p = problems[0];
    const ConvWorkload w(p, 1);
    auto device = conv_cuda::cuda_emu::make_device_case(cuda_shape(p), Tuning{}, {w.input(), w.filter()});
    device->poison();
    std::vector<float> out(p.output_size());
    device->download(out.data());
    EXPECT_FALSE(w.check(out.data()).ok);
}

TEST(CudaEmuConv, RejectsConfigurationsTheKernelsCannotRun) {
    const ConvProblem p = problems[0];
    const ConvWorkload w(p, 1);
    const conv_cuda::Inputs in{w.input(), w.filter()};
    auto make = [&](const Tuning& t) { return conv_cuda::cuda_emu::make_device_case(cuda_shape(p), t, in); };
    EXPECT_THROW(make(direct(48, 1)), std::invalid_argument);              // not whole warps
    EXPECT_THROW(make(direct(128, 3)), std::invalid_argument);             // no such register tile
    EXPECT_THROW(make(im2win(6, 1, 32, 1, 4)), std::invalid_argument);     // tile_k % k_per_thread
    EXPECT_THROW(make(im2win(32, 4, 32, 1, 1)), std::invalid_argument);    // 4096 threads
    EXPECT_THROW(make(im2win(128, 1, 32, 32, 4)), std::invalid_argument);  // shared memory
    EXPECT_THROW(make(gemm(64, 64, 8, 3, 4)), std::invalid_argument);      // TM
    EXPECT_THROW(make(gemm(16, 16, 8, 4, 4)), std::invalid_argument);      // 16 threads: half a warp
    EXPECT_NO_THROW(make(gemm(16, 16, 8, 2, 2)));                          // 64 threads
    EXPECT_THROW(make(gemm(256, 256, 32, 8, 8)), std::invalid_argument);   // shared memory
    EXPECT_THROW(make(gemm(128, 256, 8, 8, 4)), std::invalid_argument);    // 1024 threads of 32 accumulators
    EXPECT_THROW(make(Tuning{Algorithm::cudnn}), std::invalid_argument);   // GPU-only
    EXPECT_THROW(make(Tuning{Algorithm::im2col_gemm}), std::invalid_argument);
}

}  // namespace
}  // namespace memwall
