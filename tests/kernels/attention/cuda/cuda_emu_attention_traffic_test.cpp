// Global-memory traffic of the CUDA attention kernels under cuda-emu: flash's exact byte counts,
// the effect of tile size that the IO analysis of FlashAttention, Theta(N^2 d^2 / M), predicts,
// and naive's scores kept in L2 between its launches.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {
namespace {

using attention_cuda::Algorithm;
using attention_cuda::Tuning;

constexpr std::int64_t kN = 256, kD = 64;

AttentionProblem square(bool causal, AttentionDtype dtype = AttentionDtype::fp32) {
    return attention_test::problem(1, 1, kN, kN, kD, causal, dtype);
}

// One checked forward pass (flash with Br = Bc = tile); its traffic.
emu::TrafficStats traffic(Tuning t, bool causal, const emu::EmulationOptions& options = {},
                          AttentionDtype dtype = AttentionDtype::fp32) {
    const AttentionWorkload w(square(causal, dtype), 5);
    auto device = attention_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), t,
                                                             {w.q().data(), w.k().data(), w.v().data()}, options);
    device->poison();
    emu::TrafficScope scope;
    device->run();
    std::vector<float> o(w.problem().q_size());
    device->download(o.data());
    EXPECT_TRUE(w.check(o.data()).ok);
    EXPECT_TRUE(scope.stats().counted);
    return scope.stats();
}

emu::TrafficStats flash_traffic(bool causal, int tile, const emu::EmulationOptions& options = {},
                                AttentionDtype dtype = AttentionDtype::fp32) {
    return traffic(Tuning{.algorithm = Algorithm::flash, .br = tile, .bc = tile, .warps = 4}, causal, options, dtype);
}

// Q read once, O written once; each query tile of Br rows reads K and V up to the last key
// its last row sees: ceil(N / Br) * 2 * N * d floats without a mask. The K/V part is
// Theta(N^2 d^2 / M) with M = Br * d, the on-chip rows each K/V element is reused for.
std::uint64_t expected_loads(bool causal, int br) {
    const AttentionProblem p = square(causal);
    std::uint64_t floats = kN * kD;
    for (std::int64_t i0 = 0; i0 < kN; i0 += br)
        floats += static_cast<std::uint64_t>(2 * p.visible_keys(std::min(i0 + br, kN) - 1) * kD);
    return 4 * floats;
}

TEST(CudaEmuAttentionTraffic, FlashLoadsAndStoresExactly) {
    for (bool causal : {false, true})
        for (int tile : {16, 32, 64}) {
            const emu::TrafficStats s = flash_traffic(causal, tile);
            EXPECT_EQ(s.launches, 1u);
            EXPECT_EQ(s.load.bytes, expected_loads(causal, tile)) << "tile " << tile << " causal " << causal;
            EXPECT_EQ(s.store.bytes, static_cast<std::uint64_t>(4 * kN * kD));
            EXPECT_EQ(s.atomic.bytes, 0u);
        }
}

// Doubling Br = Bc halves the K/V bytes (the N^2 d^2 / M term), Q's stay.
TEST(CudaEmuAttentionTraffic, LargerTilesLoadFewerGlobalBytes) {
    const std::uint64_t q = 4 * kN * kD;
    const std::uint64_t b16 = flash_traffic(false, 16).load.bytes, b32 = flash_traffic(false, 32).load.bytes,
                        b64 = flash_traffic(false, 64).load.bytes;
    EXPECT_GT(b16, b32);
    EXPECT_GT(b32, b64);
    EXPECT_EQ(b16 - q, 2 * (b32 - q));
    EXPECT_EQ(b32 - q, 2 * (b64 - q));
}

// bf16 Q, K, V and O: the same accesses of half the size, so exactly half the global bytes,
// half the sectors of the warp requests and half the DRAM reads of fp32 for the same tiles.
TEST(CudaEmuAttentionTraffic, Bf16MovesHalfTheBytesOfFp32) {
    for (bool causal : {false, true})
        for (int tile : {16, 64}) {
            const emu::TrafficStats f = flash_traffic(causal, tile);
            const emu::TrafficStats b = flash_traffic(causal, tile, {}, AttentionDtype::bf16);
            SCOPED_TRACE("tile " + std::to_string(tile) + (causal ? " causal" : ""));
            EXPECT_EQ(b.load.accesses, f.load.accesses);
            EXPECT_EQ(2 * b.load.bytes, f.load.bytes);
            EXPECT_EQ(2 * b.store.bytes, f.store.bytes);
            EXPECT_EQ(2 * b.load.sectors, f.load.sectors);
            EXPECT_EQ(2 * b.dram_read_bytes, f.dram_read_bytes);
        }
}

// With an L2 too small for one head's K and V (128 KiB here), the re-reads reach DRAM, and
// larger tiles save DRAM bytes too.
TEST(CudaEmuAttentionTraffic, LargerTilesReadLessDramThroughASmallL2) {
    emu::EmulationOptions options;
    options.l2.bytes = 32 << 10;
    const std::uint64_t d16 = flash_traffic(false, 16, options).dram_read_bytes,
                        d64 = flash_traffic(false, 64, options).dram_read_bytes;
    EXPECT_GT(d16, 3 * d64);
    EXPECT_GE(d64, static_cast<std::uint64_t>(4 * 3 * kN * kD));  // Q, K and V at least once
}

// naive's passes are separate launches; its score matrix (256 x 256 floats, 256 KiB) stays in L2
// between them, so DRAM sees Q, K and V once. With two heads of this shape an H100 read 4.18e5 B
// (docs/gpu-runs/2026-11-27-h100.md), Q, K and V are 3.93e5, and an L2 model cold at every launch
// counted 1.44e6.
TEST(CudaEmuAttentionTraffic, NaiveReadsItsScoresBackFromL2) {
    const emu::TrafficStats s = traffic(Tuning{.algorithm = Algorithm::naive}, false);
    EXPECT_GT(s.launches, 1u);
    EXPECT_EQ(s.dram_read_bytes, static_cast<std::uint64_t>(4 * 3 * kN * kD));
    // Without room for the scores in L2, they come back from DRAM.
    emu::EmulationOptions small;
    small.l2.bytes = 32 << 10;
    EXPECT_GT(traffic(Tuning{.algorithm = Algorithm::naive}, false, small).dram_read_bytes,
              static_cast<std::uint64_t>(4 * (3 * kN * kD + kN * kN)));
}

}  // namespace
}  // namespace memwall
