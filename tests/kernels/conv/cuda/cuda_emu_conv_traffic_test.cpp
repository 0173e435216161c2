// Global-memory traffic of the CUDA conv kernels under cuda-emu: exact byte counts against closed
// forms written here from the kernels' structure (direct, the im2win transform and convolution,
// implicit_gemm), and against the family's traffic model (conv_cuda_traffic), which must predict
// the emulator's loads and stores to the byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/conv/cuda/device_case.hpp"
#include "kernels/conv/cuda/traffic_model.hpp"
#include "kernels/conv/register_cuda.hpp"
#include "tests/kernels/conv/cuda/conv_tunings.hpp"
#include "tests/support/emu_traffic.hpp"

namespace memwall {
namespace {

using conv_cuda::Algorithm;
using conv_cuda::Tuning;
using U = std::uint64_t;

ConvProblem problem(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t r,
                    std::int64_t stride, std::int64_t pad) {
    return {n, c, h, w, k, r, r, stride, pad};
}

// Padding, strides 1, 2 and 4, several images, 1x1 with gaps between windows.
const std::vector<ConvProblem> problems = {
    problem(1, 3, 16, 16, 16, 3, 1, 1), problem(2, 5, 13, 13, 7, 3, 2, 1), problem(1, 4, 23, 23, 9, 5, 4, 2),
    problem(1, 6, 11, 11, 10, 1, 2, 0), problem(2, 3, 12, 12, 5, 4, 1, 0),
};

std::string name(const ConvProblem& p) {
    return "N" + std::to_string(p.n) + " C" + std::to_string(p.c) + " H" + std::to_string(p.h) + " K" +
           std::to_string(p.k) + " R" + std::to_string(p.r) + " stride " + std::to_string(p.stride) + " pad " +
           std::to_string(p.pad);
}

// Valid (output, tap) pairs along one dimension, counted one by one.
U valid_pairs(std::int64_t outputs, std::int64_t taps, std::int64_t stride, std::int64_t pad, std::int64_t size) {
    U n = 0;
    for (std::int64_t o = 0; o < outputs; ++o)
        for (std::int64_t t = 0; t < taps; ++t) {
            const std::int64_t x = o * stride + t - pad;
            n += x >= 0 && x < size;
        }
    return n;
}

// Taps inside the input over all output pixels of one channel: rows times columns.
U valid_taps(const ConvProblem& p) {
    return valid_pairs(p.p(), p.r, p.stride, p.pad, p.h) * valid_pairs(p.q(), p.s, p.stride, p.pad, p.w);
}

U ceil_div(U a, U b) { return (a + b - 1) / b; }

using Traffic = test::EmuTraffic;

// One checked forward pass.
Traffic run(const ConvProblem& p, const Tuning& t) {
    const ConvWorkload w(p, 5);
    auto device = conv_cuda::cuda_emu::make_device_case(cuda_shape(p), t, {w.input(), w.filter()});
    const Traffic x = test::counted_run(*device);
    EXPECT_TRUE(w.check(x.output.data()).ok);
    EXPECT_TRUE(x.all.counted);
    EXPECT_EQ(x.all.atomic.bytes, 0u);
    return x;
}

// The model's loads and stores are the emulator's, byte for byte.
void expect_model(const ConvProblem& p, const Tuning& t, const emu::TrafficStats& s) {
    const ConvCudaTraffic m = conv_cuda_traffic(p, t);
    EXPECT_EQ(static_cast<double>(s.load.bytes), m.loads);
    EXPECT_EQ(static_cast<double>(s.store.bytes), m.stores);
}

// direct: each output pixel's thread loads every valid tap's input once per group of
// k_per_thread filters and one weight per filter and tap; stores each output once.
TEST(CudaEmuConvTraffic, DirectMovesItsClosedForm) {
    for (const ConvProblem& p : problems)
        for (int kpt : {1, 4, 8}) {
            SCOPED_TRACE(name(p) + " k_per_thread " + std::to_string(kpt));
            const Tuning t = conv_test::direct(64, kpt);
            const Traffic x = run(p, t);
            const U groups = ceil_div(static_cast<U>(p.k), static_cast<U>(kpt));
            EXPECT_EQ(x.all.launches, 1u);
            EXPECT_EQ(x.all.load.bytes, 4 * static_cast<U>(p.n * p.c) * valid_taps(p) * (groups + static_cast<U>(p.k)));
            EXPECT_EQ(x.all.store.bytes, 4 * static_cast<U>(p.output_size()));
            expect_model(p, t, x.all);
        }
}

// im2win: the transform loads each valid (output row, filter row) input row's W columns and
// stores the whole window tensor, padding included; the convolution loads, per block, image and
// channel, its filter tile and one window strip per output row, and stores each output once.
TEST(CudaEmuConvTraffic, Im2winMovesItsClosedForm) {
    for (const ConvProblem& p : problems)
        for (const auto& [tile_k, tile_p, tile_q] : {std::tuple{16, 4, 16}, {8, 2, 8}, {8, 1, 32}}) {
            SCOPED_TRACE(name(p) + " tiles " + std::to_string(tile_k) + "x" + std::to_string(tile_p) + "x" +
                         std::to_string(tile_q));
            const Tuning t = conv_test::im2win(tile_k, tile_p, tile_q, 2, 4);
            const Traffic x = run(p, t);
            const U nc = static_cast<U>(p.n * p.c), wp = static_cast<U>(p.w + 2 * p.pad);
            const U transform_loads = 4 * nc * valid_pairs(p.p(), p.r, p.stride, p.pad, p.h) * static_cast<U>(p.w);
            const U transform_stores = 4 * nc * static_cast<U>(p.p()) * wp * static_cast<U>(p.r);
            EXPECT_EQ(x.all.launches, 2u);
            EXPECT_EQ(x.all.load.bytes - x.last.load.bytes, transform_loads);
            EXPECT_EQ(x.all.store.bytes - x.last.store.bytes, transform_stores);
            EXPECT_EQ(transform_stores, 4 * conv_cuda::workspace_floats(cuda_shape(p), Algorithm::im2win));
            U conv_loads = 0;
            for (std::int64_t p0 = 0; p0 < p.p(); p0 += tile_p)
                for (std::int64_t q0 = 0; q0 < p.q(); q0 += tile_q)
                    for (std::int64_t k0 = 0; k0 < p.k; k0 += tile_k) {
                        const std::int64_t np = std::min<std::int64_t>(tile_p, p.p() - p0),
                                           nq = std::min<std::int64_t>(tile_q, p.q() - q0),
                                           nk = std::min<std::int64_t>(tile_k, p.k - k0);
                        conv_loads += 4 * nc * static_cast<U>(nk * p.r * p.s + np * ((nq - 1) * p.stride + p.s) * p.r);
                    }
            EXPECT_EQ(x.last.load.bytes, conv_loads);
            EXPECT_EQ(x.last.store.bytes, 4 * static_cast<U>(p.output_size()));
            // The window tensor the transform wrote is still in L2: the convolution's DRAM reads
            // are the filter's alone (32-byte sectors of one allocation).
            EXPECT_EQ(x.last.dram_read_bytes, (4 * static_cast<U>(p.filter_size()) + 31) / 32 * 32);
            expect_model(p, t, x.all);
        }
}

// implicit_gemm: every tile of BN pixels loads all of the filter matrix (K x C*R*S); every tile
// of BM filters gathers each valid tap of the input matrix; each output is stored once.
TEST(CudaEmuConvTraffic, ImplicitGemmMovesItsClosedForm) {
    for (const ConvProblem& p : problems)
        for (const auto& [bm, bn, bk, tm, tn] : {std::tuple{64, 64, 8, 4, 4}, {16, 16, 4, 1, 8}, {32, 64, 5, 2, 2}}) {
            SCOPED_TRACE(name(p) + " BM " + std::to_string(bm) + " BN " + std::to_string(bn));
            const Tuning t = conv_test::gemm(bm, bn, bk, tm, tn);
            const Traffic x = run(p, t);
            const U pixels = static_cast<U>(p.n * p.p() * p.q());
            EXPECT_EQ(x.all.launches, 1u);
            EXPECT_EQ(x.all.load.bytes, 4 * (ceil_div(pixels, static_cast<U>(bn)) * static_cast<U>(p.filter_size()) +
                                             ceil_div(static_cast<U>(p.k), static_cast<U>(bm)) *
                                                 static_cast<U>(p.n * p.c) * valid_taps(p)));
            EXPECT_EQ(x.all.store.bytes, 4 * static_cast<U>(p.output_size()));
            expect_model(p, t, x.all);
        }
}

// Larger pixel tiles re-read the filter fewer times, larger filter tiles the input: the trade
// the tuner searches, visible in the emulator's bytes.
TEST(CudaEmuConvTraffic, LargerGemmTilesLoadFewerBytes) {
    const ConvProblem p = problem(1, 16, 16, 16, 64, 3, 1, 1);
    auto loads = [&](int bm, int bn) {
        Tuning t{Algorithm::implicit_gemm};
        t.bm = bm;
        t.bn = bn;
        return run(p, t).all.load.bytes;
    };
    EXPECT_GT(loads(16, 64), loads(64, 64));
    EXPECT_GT(loads(64, 16), loads(64, 64));
}

}  // namespace
}  // namespace memwall
