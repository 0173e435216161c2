#include "harness/device_description.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cuda_emu/options.hpp"
#include "core/isa.hpp"
#include "core/machine.hpp"

namespace memwall {
namespace {

MemoryHierarchy two_levels() {
    MemoryHierarchy mh;
    mh.caches = {{"l1", 32 << 10, 1}, {"llc", 32 << 20, 2}};
    mh.cpus = 2;
    return mh;
}

TEST(DeviceDescription, CpuHasTheModelThreadsAndCaches) {
    const auto p = describe_device(Backend::cpu, two_levels());
    EXPECT_EQ(p.at("cpu.model"), cpu_model());
    EXPECT_EQ(p.at("cpu.threads"), "2");
    EXPECT_GE(std::stoi(p.at("cpu.logical_cpus")), 1);
    EXPECT_EQ(p.at("cpu.l1_bytes"), "32768");
    EXPECT_EQ(p.at("cpu.llc_bytes"), "33554432");
    EXPECT_EQ(p.at("cpu.llc_shared_by"), "2");
    EXPECT_NE(p.at("cpu.summary").find("L1 32 KiB, LLC 32 MiB (shared by 2)"), std::string::npos)
        << p.at("cpu.summary");
    for (const auto& [k, v] : p) EXPECT_EQ(k.rfind("cpu.", 0), 0u) << k;
}

// Which path the CPU kernels ran: the active ISA (MEMWALL_ISA, --isa) beside the CPU's own.
TEST(DeviceDescription, CpuRecordsTheIsaItsKernelsRanAt) {
    const char* saved = std::getenv("MEMWALL_ISA");
    const std::string restore = saved ? saved : "";
    set_active_isa(Isa::avx2);
    const auto p = describe_device(Backend::cpu, two_levels());
    EXPECT_EQ(p.at("cpu.isa"), "avx2");
    EXPECT_EQ(p.at("cpu.host_isa"), isa_name(host_isa()));
    EXPECT_NE(p.at("cpu.summary").find("kernels avx2 (x86-64-v3"), std::string::npos) << p.at("cpu.summary");
    ::setenv("MEMWALL_ISA", restore.c_str(), 1);
    EXPECT_EQ(describe_device(Backend::cpu, two_levels()).at("cpu.isa"), isa_name(active_isa()));
}

// cuda-emu says it is an emulation, names the host CPU, and gives the cache models its cases
// run with.
TEST(DeviceDescription, CudaEmuIsLabelledEmulationWithItsCacheModels) {
    const auto p = describe_device(Backend::cuda_emu, two_levels());
    const emu::EmulationOptions o;
    EXPECT_EQ(p.at("cuda-emu.kind"), "emulation");
    EXPECT_EQ(p.at("cuda-emu.host_cpu"), cpu_model());
    EXPECT_EQ(p.at("cuda-emu.l2_model_bytes"), std::to_string(o.l2.bytes));
    EXPECT_EQ(p.at("cuda-emu.l2_model_ways"), std::to_string(o.l2.ways));
    EXPECT_EQ(p.at("cuda-emu.l2_model_sector_bytes"), "32");
    EXPECT_EQ(p.at("cuda-emu.l1_model_bytes"), std::to_string(o.l1.bytes));
    const std::string& s = p.at("cuda-emu.summary");
    EXPECT_EQ(s.rfind("emulation, no GPU", 0), 0u) << s;
    EXPECT_NE(s.find("50 MiB"), std::string::npos) << s;
}

TEST(DeviceDescription, CudaWithoutADeviceSaysSo) {
    if (probe_backend(Backend::cuda).available) GTEST_SKIP() << "a CUDA device is present";
    const auto p = describe_device(Backend::cuda, two_levels());
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p.at("cuda.summary"), "CUDA device 0 could not be queried");
}

TEST(DeviceDescription, RunsJoinTheirBackendsAndSummariesFollowTheBackendOrder) {
    const auto p = describe_devices({Backend::cuda_emu, Backend::cpu}, two_levels());
    EXPECT_EQ(p.count("cpu.model"), 1u);
    EXPECT_EQ(p.count("cuda-emu.kind"), 1u);
    const auto s = device_summaries(p);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].first, "cpu");
    EXPECT_EQ(s[0].second, p.at("cpu.summary"));
    EXPECT_EQ(s[1].first, "cuda-emu");
    EXPECT_TRUE(device_summaries({{"cpu.model", "x"}}).empty());
}

}  // namespace
}  // namespace memwall
