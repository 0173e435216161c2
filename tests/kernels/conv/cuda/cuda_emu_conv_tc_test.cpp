// implicit_gemm_tc and im2win_tc under cuda-emu, whose mma.sync, ldmatrix and cp.async follow the
// PTX ISA's fragment layouts lane by lane: every compiled tile, bf16 and tf32, against the
// float64 reference (the dtype's bound, conv.hpp) on channel counts that are no multiple of a
// chunk, filter and pixel counts no tile divides, padding and strides; the global bytes and tensor
// FLOPs the emulator counts against the model's, to the byte and FLOP; block orders; refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/conv/cuda/device_case.hpp"
#include "kernels/conv/cuda/traffic_model.hpp"
#include "kernels/conv/register.hpp"
#include "kernels/conv/register_cuda.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {
namespace {

using conv_cuda::Algorithm;
using conv_cuda::ConvTcTile;
using conv_cuda::Tuning;

ConvProblem problem(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t k, std::int64_t r, std::int64_t stride,
                    std::int64_t pad, ConvDtype dtype) {
    return {n, c, h, h, k, r, r, stride, pad, dtype};
}

// 3 and 20 channels (no multiple of 8 or 4), 70 filters (past one 64 tile), 2 images whose
// pixels a tile spans, a 1x1 filter, stride 2 with a 4x4 filter and no padding.
std::vector<ConvProblem> problems(ConvDtype d) {
    return {problem(1, 3, 8, 5, 3, 1, 1, d), problem(2, 20, 7, 24, 3, 2, 1, d), problem(1, 9, 6, 70, 1, 1, 0, d),
            problem(1, 4, 9, 8, 4, 2, 0, d)};
}

struct TcCase {
    Algorithm algorithm;
    ConvTcTile tile;
    ConvDtype dtype;
};

std::ostream& operator<<(std::ostream& os, const TcCase& c) {
    return os << (c.algorithm == Algorithm::implicit_gemm_tc ? "implicit_gemm_tc" : "im2win_tc") << " "
              << (c.dtype == ConvDtype::bf16 ? "bf16" : "tf32") << " BM " << c.tile.bm << " BN " << c.tile.bn
              << " stages " << c.tile.stages;
}

// N x C x H x W -> K, R x S / stride, pad
std::string name(const ConvProblem& p) {
    const auto x = [](std::int64_t v) { return std::to_string(v); };
    return x(p.n) + "x" + x(p.c) + "x" + x(p.h) + "x" + x(p.w) + " -> " + x(p.k) + ", " + x(p.r) + "x" + x(p.s) +
           " / " + x(p.stride) + ", " + x(p.pad);
}

Tuning tuning(const TcCase& c) {
    Tuning t{c.algorithm};
    t.bm = c.tile.bm;
    t.bn = c.tile.bn;
    t.stages = c.tile.stages;
    return t;
}

struct Outcome {
    Check check;
    emu::TrafficStats traffic;
};

Outcome run(const ConvProblem& p, const Tuning& t, const emu::EmulationOptions& options = {}) {
    const ConvWorkload w(p, 5);
    auto device = conv_cuda::cuda_emu::make_device_case(cuda_shape(p), t, {w.input(), w.filter()}, options);
    device->poison();
    emu::TrafficScope scope;
    device->run();
    const emu::TrafficStats traffic = scope.stats();
    std::vector<float> out(p.output_size());
    device->download(out.data());
    return {w.check(out.data()), traffic};
}

std::vector<TcCase> cases() {
    std::vector<TcCase> out;
    for (Algorithm a : {Algorithm::implicit_gemm_tc, Algorithm::im2win_tc})
        for (ConvDtype d : {ConvDtype::bf16, ConvDtype::tf32})
            for (const ConvTcTile& t : conv_cuda::kConvTcTiles) out.push_back({a, t, d});
    return out;
}

class CudaEmuConvTc : public ::testing::TestWithParam<TcCase> {};

TEST_P(CudaEmuConvTc, MatchesReferenceAndTheModelsCounts) {
    const TcCase& c = GetParam();
    for (const ConvProblem& p : problems(c.dtype)) {
        SCOPED_TRACE(name(p));
        const Outcome r = run(p, tuning(c));
        EXPECT_TRUE(r.check.ok) << r.check.message << " error " << r.check.error;
        EXPECT_TRUE(r.traffic.counted);
        EXPECT_EQ(r.traffic.launches, c.algorithm == Algorithm::im2win_tc ? 2u : 1u);
        const ConvCudaTraffic m = conv_cuda_traffic(p, tuning(c));
        EXPECT_EQ(static_cast<double>(r.traffic.load.bytes), m.loads);
        EXPECT_EQ(static_cast<double>(r.traffic.store.bytes), m.stores);
        const double flops = conv_tc_tensor_flops(p, tuning(c));
        EXPECT_GE(flops, p.flops());
        EXPECT_EQ(static_cast<double>(c.dtype == ConvDtype::bf16 ? r.traffic.tensor.bf16 : r.traffic.tensor.tf32),
                  flops);
        EXPECT_EQ(c.dtype == ConvDtype::bf16 ? r.traffic.tensor.tf32 : r.traffic.tensor.bf16, 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(EveryTile, CudaEmuConvTc, ::testing::ValuesIn(cases()));

// A wrong layout or swizzle errs by whole taps, far past the bounds: the bounds are tight enough
// to tell (the error of a kernel whose filter reads one tap late would pass nothing).
TEST(CudaEmuConvTcCheck, TolerancesAreTheDtypes) {
    EXPECT_EQ(ConvWorkload(problem(1, 3, 8, 5, 3, 1, 1, ConvDtype::bf16), 1).tolerance(), 1e-2);
    EXPECT_EQ(ConvWorkload(problem(1, 3, 8, 5, 3, 1, 1, ConvDtype::tf32), 1).tolerance(), 1e-3);
}

// Shared memory persists from block to block in emulation: other orders, with poisoning, expose
// a block that reads stage entries it did not write.
TEST(CudaEmuConvTcOrder, ReverseAndShuffledBlocks) {
    for (emu::BlockOrder order : {emu::BlockOrder::reverse, emu::BlockOrder::shuffled})
        for (Algorithm a : {Algorithm::implicit_gemm_tc, Algorithm::im2win_tc}) {
            emu::EmulationOptions options;
            options.order = order;
            options.seed = 3;
            const Outcome r = run(problem(2, 20, 7, 70, 3, 1, 1, ConvDtype::bf16),
                                  tuning({a, conv_cuda::kConvTcTiles[0], ConvDtype::bf16}), options);
            EXPECT_TRUE(r.check.ok) << r.check.message;
        }
}

TEST(CudaEmuConvTcRefusals, DtypeAndTilesInOneLine) {
    const ConvProblem p = problem(1, 3, 8, 5, 3, 1, 1, ConvDtype::bf16);
    const ConvWorkload w(p, 1);
    Tuning t{Algorithm::implicit_gemm_tc};
    t.bm = 32;
    try {
        conv_cuda::cuda_emu::make_device_case(cuda_shape(p), t, {w.input(), w.filter()});
        FAIL() << "a tile that is not compiled was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("no compiled tile BM/BN/stages 32/64/3"), std::string::npos) << e.what();
    }
    ConvProblem fp32 = p;
    fp32.dtype = ConvDtype::fp32;
    EXPECT_THROW(
        conv_cuda::cuda_emu::make_device_case(cuda_shape(fp32), Tuning{Algorithm::im2win_tc}, {w.input(), w.filter()}),
        std::invalid_argument);
    EXPECT_THROW(
        conv_cuda::cuda_emu::make_device_case(cuda_shape(p), Tuning{Algorithm::direct}, {w.input(), w.filter()}),
        std::invalid_argument);
}

// Through the catalogue: the emulated tensor FLOPs are reported beside the model's (sources emu
// and model), on the tensor roof of the dtype; the tensor-core variants take the point, the
// others' dtype constraint refuses it.
TEST(CudaEmuConvTcCounters, EmulatedTensorFlopsEqualTheModel) {
    Catalogue c;
    register_conv(c);
    const Family& f = c.family("conv");
    const MemoryHierarchy mh = detect_memory_hierarchy();
    for (const char* variant : {"implicit_gemm_tc", "im2win_tc"})
        for (const char* dtype : {"bf16", "tf32"}) {
            const Variant& v = c.variant("conv", variant, Backend::cuda_emu);
            Params point;
            for (const auto& [axis, value] : std::vector<std::pair<const char*, std::int64_t>>{{"batch", 1},
                                                                                               {"C", 5},
                                                                                               {"H", 6},
                                                                                               {"W", 6},
                                                                                               {"K", 9},
                                                                                               {"R", 3},
                                                                                               {"S", 3},
                                                                                               {"stride", 1},
                                                                                               {"pad", 1},
                                                                                               {"BM", 64},
                                                                                               {"BN", 64},
                                                                                               {"stages", 3}})
                point.set(axis, value);
            point.set("layer", std::string("custom"));
            point.set("dtype", std::string(dtype));
            SCOPED_TRACE(point.label());
            const auto w = f.make_workload(point, 5);
            auto inst = v.prepare(*w, point);
            inst->poison();
            inst->run();
            EXPECT_TRUE(inst->check().ok);
            const std::string_view name =
                std::string(dtype) == "bf16" ? counters::kFlopsBf16Tensor : counters::kFlopsTf32Tensor;
            const Counter* emu_flops = find_counter(inst->measured_counters(), name);
            ASSERT_NE(emu_flops, nullptr);
            EXPECT_EQ(emu_flops->source, CounterSource::emu);
            EXPECT_EQ(emu_flops->value, find_counter(v.model(point, mh), name)->value);
            for (const Constraint& k : v.constraints) EXPECT_TRUE(k.allows(point)) << k.description;
            EXPECT_FALSE(conv_fp32_only().allows(point));
        }
}

}  // namespace
}  // namespace memwall
