#include "core/isa.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"

namespace memwall {
namespace {

// Restores MEMWALL_ISA as the test found it.
class IsaOverride : public ::testing::Test {
  protected:
    void SetUp() override {
        if (const char* v = std::getenv("MEMWALL_ISA")) saved_ = v;
        ::unsetenv("MEMWALL_ISA");
    }
    void TearDown() override {
        if (saved_.empty())
            ::unsetenv("MEMWALL_ISA");
        else
            ::setenv("MEMWALL_ISA", saved_.c_str(), 1);
    }
    std::string saved_;
};

TEST(Isa, NamesParseBackAndOthersAreRefused) {
    for (Isa isa : {Isa::avx2, Isa::avx512}) EXPECT_EQ(parse_isa(isa_name(isa)), isa);
    EXPECT_EQ(isa_name(Isa::avx2), "avx2");
    EXPECT_EQ(isa_name(Isa::avx512), "avx512");
    EXPECT_THROW(parse_isa("sse2"), UsageError);
    EXPECT_THROW(parse_isa("AVX2"), UsageError);
}

TEST(Isa, HostLevelMatchesTheCompilersCpuCheck) {
    __builtin_cpu_init();
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                        __builtin_cpu_supports("avx512cd");
    EXPECT_EQ(host_isa(), avx512 ? Isa::avx512 : Isa::avx2);
}

TEST_F(IsaOverride, UnsetOrEmptyIsTheHost) {
    EXPECT_EQ(active_isa(), host_isa());
    ::setenv("MEMWALL_ISA", "", 1);
    EXPECT_EQ(active_isa(), host_isa());
}

TEST_F(IsaOverride, Avx2RunsOnEveryHost) {
    ::setenv("MEMWALL_ISA", "avx2", 1);
    EXPECT_EQ(active_isa(), Isa::avx2);
    set_active_isa(Isa::avx2);
    EXPECT_STREQ(std::getenv("MEMWALL_ISA"), "avx2");
}

TEST_F(IsaOverride, Avx512RunsOnlyWhereTheHostHasIt) {
    ::setenv("MEMWALL_ISA", "avx512", 1);
    if (host_isa() == Isa::avx512) {
        EXPECT_EQ(active_isa(), Isa::avx512);
        set_active_isa(Isa::avx512);
        EXPECT_STREQ(std::getenv("MEMWALL_ISA"), "avx512");
    } else {
        EXPECT_THROW(active_isa(), UsageError);
        ::unsetenv("MEMWALL_ISA");
        EXPECT_THROW(set_active_isa(Isa::avx512), UsageError);
        EXPECT_EQ(std::getenv("MEMWALL_ISA"), nullptr);  // a refused request sets nothing
    }
}

TEST_F(IsaOverride, AnUnknownNameIsAOneLineUsageError) {
    ::setenv("MEMWALL_ISA", "neon", 1);
    try {
        active_isa();
        FAIL() << "MEMWALL_ISA=neon was accepted";
    } catch (const UsageError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("MEMWALL_ISA=neon"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

// Tuned configurations are stored per device: the AVX2 path of an AVX-512 CPU is a device apart.
TEST_F(IsaOverride, ALoweredIsaIsACpuDeviceOfItsOwn) {
    EXPECT_EQ(probe_backend(Backend::cpu).device, cpu_description());
    ::setenv("MEMWALL_ISA", "avx2", 1);
    const std::string device = probe_backend(Backend::cpu).device;
    if (host_isa() == Isa::avx512)
        EXPECT_EQ(device, cpu_description() + ", avx2 kernels");
    else
        EXPECT_EQ(device, cpu_description());
}

TEST_F(IsaOverride, TheSummarySaysWhenThePathIsBelowTheCpus) {
    ::setenv("MEMWALL_ISA", "avx2", 1);
    const std::string summary = isa_summary();
    EXPECT_EQ(summary.rfind("avx2 (x86-64-v3", 0), 0u) << summary;
    EXPECT_EQ(summary.find("the CPU has avx512") != std::string::npos, host_isa() == Isa::avx512) << summary;
}

}  // namespace
}  // namespace memwall
