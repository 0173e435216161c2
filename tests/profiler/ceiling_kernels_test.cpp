// Each ceiling kernel does what its byte count says, on every ISA path this host runs: a kernel
// that moved fewer bytes than counted would set a ceiling above the hardware's.
#include "profiler/ceiling_kernels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

namespace memwall {
namespace {

std::vector<CeilingIsa> host_isas() {
    std::vector<CeilingIsa> out{CeilingIsa::generic};
    for (const char* name : {"avx2", "avx512"}) {
        try {
            out.push_back(ceiling_isa(name));
        } catch (const std::invalid_argument&) {
            // this host does not run it
        }
    }
    return out;
}

struct Free {
    void operator()(float* p) const { std::free(p); }
};

// n floats, 64-byte aligned, each i + 1.
std::unique_ptr<float, Free> counting(std::size_t n) {
    std::unique_ptr<float, Free> a(static_cast<float*>(std::aligned_alloc(64, n * sizeof(float))));
    for (std::size_t i = 0; i < n; ++i) a.get()[i] = static_cast<float>(i + 1);
    return a;
}

TEST(CeilingKernels, EveryKernelTouchesEveryElementOnEveryPath) {
    // 16 (one vector, a half of 8), 144 (a tail after the unrolled reduction), 1040.
    for (CeilingIsa isa : host_isas()) {
        for (std::size_t n : {16u, 144u, 1040u}) {
            SCOPED_TRACE(std::string(to_string(isa)) + " n=" + std::to_string(n));
            auto a = counting(n);
            const double sum = bandwidth_pass(BandwidthKernel::read, isa, a.get(), n);
            EXPECT_NEAR(sum, static_cast<double>(n) * static_cast<double>(n + 1) / 2, 1e-4 * sum);

            bandwidth_pass(BandwidthKernel::copy, isa, a.get(), n);
            for (std::size_t i = 0; i < n / 2; ++i) ASSERT_EQ(a.get()[n / 2 + i], static_cast<float>(i + 1)) << i;

            a = counting(n);
            bandwidth_pass(BandwidthKernel::axpb, isa, a.get(), n);
            for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(a.get()[i], 0.5f * static_cast<float>(i + 1) + 0.5f) << i;

            bandwidth_pass(BandwidthKernel::nt_store, isa, a.get(), n);
            for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(a.get()[i], 1.0f) << i;
        }
    }
}

TEST(CeilingKernels, BytesPerPassCountTheKernelsLoadsAndStores) {
    EXPECT_EQ(bytes_per_pass(BandwidthKernel::read, 16), 64);
    EXPECT_EQ(bytes_per_pass(BandwidthKernel::copy, 16), 64);  // 8 floats read, 8 written
    EXPECT_EQ(bytes_per_pass(BandwidthKernel::axpb, 16), 128);
    EXPECT_EQ(bytes_per_pass(BandwidthKernel::nt_store, 16), 64);
}

TEST(CeilingKernels, FmaChainsStayBoundedAndCountTheirFlops) {
    for (CeilingIsa isa : host_isas()) {
        const float r = fma_chains(isa, 1000, 0.5f, 0.5f);
        EXPECT_TRUE(std::isfinite(r)) << to_string(isa);
        EXPECT_GT(r, 0) << to_string(isa);
    }
    EXPECT_EQ(fma_flops_per_iteration(CeilingIsa::avx512), 512);
    EXPECT_EQ(fma_flops_per_iteration(CeilingIsa::avx2), 192);
    EXPECT_EQ(fma_chains_shape(CeilingIsa::avx512), "16 x 512-bit accumulators");
}

TEST(CeilingKernels, TheClockChainIsThatManyAdditions) {
#if defined(__x86_64__)
    EXPECT_EQ(dependent_adds(10), 10 * kClockChainLength);
    EXPECT_GT(fma_units(CeilingIsa::avx2), 0) << "every AVX2 core of Intel and AMD has FMA units";
#else
    GTEST_SKIP() << "the clock is measured on x86 only";
#endif
}

TEST(CeilingIsa, NamesAndTheHostsWidest) {
    EXPECT_EQ(to_string(CeilingIsa::avx512), "avx512");
    EXPECT_EQ(to_string(CeilingIsa::avx2), "avx2");
    EXPECT_THROW(ceiling_isa("sse2"), std::invalid_argument);
    const std::vector<CeilingIsa> runs = host_isas();
    const char* was = std::getenv("MEMWALL_ISA");
    const std::string saved = was ? was : "";
    unsetenv("MEMWALL_ISA");
    EXPECT_EQ(ceiling_isa(""), runs.back());  // the widest: avx512 where it runs, else avx2
    // The kernels' override lowers the ceilings' path with them.
    if (runs.size() > 1) {
        setenv("MEMWALL_ISA", "avx2", 1);
        EXPECT_EQ(ceiling_isa(""), CeilingIsa::avx2);
        EXPECT_EQ(ceiling_isa("avx2"), CeilingIsa::avx2);
    }
    if (was) {
        setenv("MEMWALL_ISA", saved.c_str(), 1);
    } else {
        unsetenv("MEMWALL_ISA");
    }
    EXPECT_EQ(fma_lanes(CeilingIsa::avx512), 16);
    EXPECT_EQ(fma_lanes(CeilingIsa::avx2), 8);
    EXPECT_EQ(fma_units(CeilingIsa::generic), 0);
}

}  // namespace
}  // namespace memwall
