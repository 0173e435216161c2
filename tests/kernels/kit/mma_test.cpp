// The warp matrix primitives of kit/cuda/mma.cuh under cuda-emu: every layout against the PTX
// ISA's tables, mma.sync's results, cp.async's landing, the emulated counts, and the errors.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "cuda_emu/launch.hpp"
#include "cuda_emu/traffic.hpp"
#include "mma_checks.hpp"

namespace memwall::kit_test {
namespace {

const Probes emu{&cuda_emu::ldmatrix_probe, &cuda_emu::stmatrix_probe, &cuda_emu::mma_probe, &cuda_emu::convert_probe};

TEST(MmaEmu, LdmatrixFollowsTheTable) { check_ldmatrix(emu); }
TEST(MmaEmu, StmatrixFollowsTheTable) { check_stmatrix(emu, false); }
TEST(MmaEmu, StmatrixOfShufflesFollowsTheTable) { check_stmatrix(emu, true); }
TEST(MmaEmu, MmaOfExactInputsIsExact) { check_mma_exact(emu); }
TEST(MmaEmu, MmaOfRoundedInputsMatchesFloat64) { check_mma_rounded(emu); }
TEST(MmaEmu, ConversionsRoundAsPtxSays) { check_conversions(emu); }

// The documented order: from C, the products added in k order, each sum rounded to fp32.
TEST(MmaEmu, AccumulatesFromCInKOrder) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> A(256), B(128), C(128);
    for (float& x : A) x = bf16_value(u(rng));
    for (float& x : B) x = bf16_value(u(rng));
    for (float& x : C) x = u(rng) * 1000;
    const Fragments f = fragments(0, A, B, C);
    const std::vector<float> d = cuda_emu::mma_probe(0, f.a, f.b, f.c);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const auto [m, n] = c16x8(lane, i);
            float want = C[8 * m + n];
            for (int k = 0; k < 16; ++k) want += A[16 * m + k] * B[8 * k + n];
            ASSERT_EQ(d[32 * i + lane], want) << "lane " << lane << " d[" << i << "]";
        }
}

// Stages read before their group's wait hold what was there; wait_group 1 lands all but the
// newest committed group; uncommitted copies never land; zfill copies src_bytes and zeros.
TEST(MmaEmu, CpAsyncLandsAtWaitGroup) {
    std::vector<std::uint32_t> g(512);
    for (std::size_t i = 0; i < g.size(); ++i) g[i] = static_cast<std::uint32_t>(1000 + i);
    const std::vector<std::uint32_t> o = cuda_emu::cp_async_probe(g);
    const std::uint32_t old = 0xdeadu;
    for (int lane = 0; lane < 32; ++lane) {
        const std::uint32_t* src = g.data() + 16 * lane;
        const std::uint32_t* out = o.data() + 16 * lane;
        SCOPED_TRACE("lane " + std::to_string(lane));
        EXPECT_EQ(out[0], old);
        EXPECT_EQ(out[1], src[0]);
        EXPECT_EQ(out[2], old);
        EXPECT_EQ(out[3], src[4]);
        EXPECT_EQ(out[4], src[5]);
        for (int i = 0; i < 4; ++i) EXPECT_EQ(out[5 + i], src[8 + i]);
        EXPECT_EQ(out[9], old);
        unsigned char want[16] = {};
        std::memcpy(want, src + 12, static_cast<std::size_t>(lane % 17));
        EXPECT_EQ(std::memcmp(out + 10, want, 16), 0) << "zfill of " << lane % 17 << " bytes";
    }
}

// One warp: two cp.async of 16 bytes per lane (512 B, 16 sectors, one request each), ldmatrix.x4
// (512 B), stmatrix.x2 (256 B), one m16n8k16 bf16 and one m16n8k8 tf32 mma.sync, and 4 floats
// stored per lane. .cg skips L1, so both copies reach L2; .ca's second hits L1.
TEST(MmaEmu, CountsAreExact) {
    for (bool ca : {false, true}) {
        SCOPED_TRACE(ca ? "ca" : "cg");
        cuda_emu::counted_probe(ca);
        const emu::TrafficStats s = emu::last_traffic();
        ASSERT_TRUE(s.counted);
        EXPECT_EQ(s.load.bytes, 1024u);
        EXPECT_EQ(s.load.accesses, 64u);
        EXPECT_EQ(s.load.requests, 2u);
        EXPECT_EQ(s.load.sectors, 32u);
        EXPECT_EQ(s.load.l2_sectors, ca ? 16u : 32u);
        EXPECT_EQ(s.store.bytes, 512u);
        EXPECT_EQ(s.shared.load.bytes, 512u);
        EXPECT_EQ(s.shared.load.accesses, 32u);
        EXPECT_EQ(s.shared.store.bytes, 1024u + 256u);
        EXPECT_EQ(s.shared.store.accesses, 64u + 16u);
        EXPECT_EQ(s.tensor.bf16, 4096u);
        EXPECT_EQ(s.tensor.f16, 0u);
        EXPECT_EQ(s.tensor.tf32, 2048u);
        const std::vector<Counter> c = emu::traffic_counters(s);
        const Counter* bf16 = find_counter(c, counters::kFlopsBf16Tensor);
        const Counter* tf32 = find_counter(c, counters::kFlopsTf32Tensor);
        ASSERT_TRUE(bf16 && tf32);
        EXPECT_EQ(bf16->value, 4096);
        EXPECT_EQ(tf32->value, 2048);
        EXPECT_EQ(bf16->source, CounterSource::emu);
    }
    // A scope sums them over its launches.
    emu::TrafficScope scope;
    cuda_emu::counted_probe(true);
    cuda_emu::counted_probe(false);
    EXPECT_EQ(scope.stats().tensor.bf16, 2 * 4096u);
    EXPECT_EQ(scope.stats().tensor.tf32, 2 * 2048u);
}

std::string fault(int mode, unsigned threads = 32) {
    try {
        cuda_emu::fault_probe(mode, threads);
    } catch (const cuda::LaunchError& e) {
        return e.what();
    }
    return "no error";
}

TEST(MmaEmu, RuleBreaksEndTheLaunch) {
    const struct {
        int mode;
        unsigned threads;
        const char* says;
    } cases[] = {
        {0, 32, "lane 31 of warp 0 has returned while the others wait in mma.sync.aligned.m16n8k16"},
        {0, 16, "lane 16 of warp 0 is not in the block"},
        {1, 32, "lane 3's row address"},
        {2, 32, "lane 5's row address"},
        {3, 32, "is not 16-byte aligned"},
        {4, 32, "source size 17 is not in [0, 16]"},
        {5, 32, "is not in one device allocation"},
        {6, 32, "the lanes of a warp must execute the same instruction"},
    };
    for (const auto& c : cases) {
        const std::string what = fault(c.mode, c.threads);
        EXPECT_NE(what.find(c.says), std::string::npos) << "mode " << c.mode << ": " << what;
        EXPECT_NE(what.find("mma_probe.cuh:"), std::string::npos) << "mode " << c.mode << ": " << what;
    }
    EXPECT_NE(fault(1).find("is not in the block's shared memory"), std::string::npos);
    EXPECT_NE(fault(2).find("is not 16-byte aligned"), std::string::npos);
}

}  // namespace
}  // namespace memwall::kit_test
