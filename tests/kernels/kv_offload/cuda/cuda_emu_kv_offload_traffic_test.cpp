// Traffic of the CUDA kv_offload variants under cuda-emu: the family's model (kv_cuda_traffic)
// must predict the emulator's device-memory loads and stores and zero_copy's host-memory bytes,
// requests and sectors exactly; zero_copy's sectors are the minimum (tier bytes / 32) when its
// pages are aligned and 5/4 of it when a shift breaks the 32-byte alignment; only zero_copy
// touches host memory from a kernel, and its pages never reach the device-memory figures.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kv_cuda_test_support.hpp"

namespace memwall {
namespace {

using namespace kv_cuda_test;
using U = std::uint64_t;

const std::vector<Tuning> tunings = {Tuning{}, {1, 1, 0, 1}, {3, 2, 4, 3}, {16, 8, 64, 2}};

TEST(CudaEmuKvOffloadTraffic, ModelPredictsEveryVariantsBytesExactly) {
    for (Method m : methods)
        for (const KvProblem& p : problems)
            for (const Tuning& t : tunings) {
                SCOPED_TRACE(std::string(name(m)) + " " + label(p) + " splits " + std::to_string(t.splits) + " warps " +
                             std::to_string(t.warps) + " misalign " + std::to_string(t.misalign));
                const Emulated r = run_emulated(p, m, t);
                ASSERT_TRUE(r.check.ok) << r.check.message;
                const KvCudaTraffic model = kv_cuda_traffic(p, m, t);
                const emu::TrafficStats& s = r.traffic;
                EXPECT_EQ(static_cast<double>(s.load.bytes), model.loads);
                EXPECT_EQ(static_cast<double>(s.store.bytes), model.stores);
                EXPECT_EQ(static_cast<double>(s.host.load.bytes), model.host_loads);
                EXPECT_EQ(static_cast<double>(s.host.load.requests), model.host_requests);
                EXPECT_EQ(static_cast<double>(s.host.load.sectors), model.host_sectors);
                EXPECT_EQ(s.host.store, emu::HostAccessCounts{});
                EXPECT_EQ(s.atomic.bytes, 0u);
                const U launches_per_step = m == Method::pipelined ? U(kv_cuda::chunks(cuda_shape(p), m, t)) + 1 : 2;
                EXPECT_EQ(s.launches, U(p.steps) * launches_per_step);
            }
}

// selection=topk: the model still predicts every variant's bytes exactly, and what zero_copy
// reads from the host tier is the pages the approximate scores chose.
TEST(CudaEmuKvOffloadTraffic, TopkSelectionsPagesAreTheTiersBytes) {
    KvProblem p = problem(256, 16, 2, 64, 0.25, 0, 3);
    p.topk = true;
    p.label_channels = 8;
    for (Method m : methods) {
        SCOPED_TRACE(name(m));
        const Emulated r = run_emulated(p, m, Tuning{});
        ASSERT_TRUE(r.check.ok) << r.check.message;
        const KvCudaTraffic model = kv_cuda_traffic(p, m, Tuning{});
        EXPECT_EQ(static_cast<double>(r.traffic.load.bytes), model.loads);
        EXPECT_EQ(static_cast<double>(r.traffic.store.bytes), model.stores);
        EXPECT_EQ(static_cast<double>(r.traffic.host.load.bytes), model.host_loads);
        if (m == Method::zero_copy) {
            EXPECT_EQ(static_cast<double>(r.traffic.host.load.bytes), p.tier_bytes());
        }
    }
}

// The emulated default (16 pages of 16 tokens, 2 heads of 64, 4 pages a step, 2 steps): each
// token's key and value rows are 2 warp requests of 128 bytes per head, 4 sectors each aligned.
TEST(CudaEmuKvOffloadTraffic, ZeroCopySectorsAreTheMinimumAlignedAndFiveFourthsMisaligned) {
    const KvProblem p = problems[0];
    const U tier = static_cast<U>(p.tier_bytes());
    ASSERT_EQ(tier, 2u * 4 * 16384);
    const U requests = 2 /*steps*/ * 2 /*heads*/ * 4 * 16 /*tokens*/ * 2 /*K, V*/ * 2 /*128-byte halves*/;
    for (const auto& [misalign, sectors] :
         {std::pair{0, tier / 32}, {4, 5 * requests}, {36, 5 * requests}, {32, tier / 32}, {64, tier / 32}}) {
        SCOPED_TRACE("misalign " + std::to_string(misalign));
        const Emulated r = run_emulated(p, Method::zero_copy, {8, 4, misalign, 4});
        ASSERT_TRUE(r.check.ok);
        EXPECT_EQ(r.traffic.host.load.bytes, tier);
        EXPECT_EQ(r.traffic.host.load.requests, requests);
        EXPECT_EQ(r.traffic.host.load.sectors, sectors);
    }
    EXPECT_EQ(tier / 32, 4 * requests);
}

// resident reads the pages from device memory, zero_copy from host memory: the same bytes, and
// its device loads are resident's less the pages.
TEST(CudaEmuKvOffloadTraffic, ZeroCopysPagesLeaveTheDeviceFigures) {
    const KvProblem p = problems[0];
    const Emulated resident = run_emulated(p, Method::resident, Tuning{}),
                   zero_copy = run_emulated(p, Method::zero_copy, Tuning{});
    EXPECT_EQ(resident.traffic.host, emu::HostTraffic{});
    EXPECT_EQ(resident.traffic.load.bytes - zero_copy.traffic.load.bytes, static_cast<U>(p.tier_bytes()));
    EXPECT_EQ(zero_copy.traffic.host.load.bytes, static_cast<U>(p.tier_bytes()));
    EXPECT_LT(zero_copy.traffic.dram_read_bytes + static_cast<U>(p.tier_bytes()) / 2, resident.traffic.dram_read_bytes);
}

// The model's counters: tier bytes are zero_copy's sectors x 32 (more than the pages when
// misaligned), the copies' bytes for staged and pipelined, nothing for resident.
TEST(CudaEmuKvOffloadTraffic, ModelCountersNameTheTier) {
    const KvProblem p = problems[0];
    const auto value = [](const std::vector<Counter>& cs, const char* n) {
        const Counter* c = find_counter(cs, n);
        EXPECT_NE(c, nullptr) << n;
        return c ? c->value : -1;
    };
    EXPECT_EQ(value(kv_cuda_model(p, Method::resident, Tuning{}), "tier.bytes"), 0);
    EXPECT_EQ(value(kv_cuda_model(p, Method::staged, Tuning{}), "tier.bytes"), p.tier_bytes());
    EXPECT_EQ(value(kv_cuda_model(p, Method::staged, Tuning{}), "tier.requests"), 2);
    EXPECT_EQ(value(kv_cuda_model(p, Method::pipelined, {8, 4, 0, 3}), "tier.requests"), 4);
    EXPECT_EQ(value(kv_cuda_model(p, Method::zero_copy, Tuning{}), "tier.bytes"), p.tier_bytes());
    EXPECT_EQ(value(kv_cuda_model(p, Method::zero_copy, {8, 4, 4, 4}), "tier.bytes"), 1.25 * p.tier_bytes());
    EXPECT_EQ(value(kv_cuda_model(p, Method::zero_copy, Tuning{}), "flops"), p.flops());
}

}  // namespace
}  // namespace memwall
