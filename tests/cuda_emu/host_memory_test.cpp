// Mapped pinned host memory in cuda-emu: cudaHostAlloc, cudaMallocHost, cudaFreeHost and
// cudaHostGetDevicePointer as the CUDA runtime defines them, and kernels' accesses to that
// memory counted as host-memory sectors per warp request, apart from global memory and from the
// L2 and DRAM figures. A warp reading 128 bytes touches 4 sectors aligned, 5 misaligned.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_emu/cuda.hpp"
#include "cuda_emu/traffic.hpp"
#include "device_buffer.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test {
namespace {

using namespace cuda_emu;

// A cudaHostAlloc'd array, freed with cudaFreeHost.
struct HostArray {
    explicit HostArray(std::size_t n, unsigned flags = cudaHostAllocMapped) {
        EXPECT_EQ(cudaHostAlloc(&p, n * sizeof(float), flags), cudaSuccess);
    }
    ~HostArray() { EXPECT_EQ(cudaFreeHost(p), cudaSuccess); }
    HostArray(const HostArray&) = delete;
    HostArray& operator=(const HostArray&) = delete;
    float* p = nullptr;
};

TEST(HostMemory, AllocIsPageAlignedPoisonedAndMappedAtTheSameAddress) {
    for (unsigned flags : {cudaHostAllocDefault, cudaHostAllocMapped, cudaHostAllocMapped | cudaHostAllocPortable,
                           cudaHostAllocWriteCombined}) {
        HostArray h(10, flags);
        ASSERT_NE(h.p, nullptr);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(h.p) % 4096, 0u);
        for (int i = 0; i < 10; ++i) EXPECT_TRUE(std::isnan(h.p[i]));
        void* device = nullptr;
        ASSERT_EQ(cudaHostGetDevicePointer(&device, h.p, 0), cudaSuccess);
        EXPECT_EQ(device, h.p);
        // An address inside the allocation maps too.
        ASSERT_EQ(cudaHostGetDevicePointer(&device, h.p + 3, 0), cudaSuccess);
        EXPECT_EQ(device, h.p + 3);
    }
    float* p = nullptr;
    ASSERT_EQ(cudaMallocHost(&p, 64), cudaSuccess);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 4096, 0u);
    EXPECT_EQ(cudaFreeHost(p), cudaSuccess);
    EXPECT_EQ(cudaFreeHost(nullptr), cudaSuccess);
}

TEST(HostMemory, WrongPointersAndFlagsAreRefused) {
    void* p = nullptr;
    EXPECT_EQ(cudaHostAlloc(&p, 64, 0x80), cudaErrorInvalidValue);
    EXPECT_EQ(cudaHostAlloc(static_cast<void**>(nullptr), 64, cudaHostAllocMapped), cudaErrorInvalidValue);
    float local = 0;
    void* device = nullptr;
    EXPECT_EQ(cudaHostGetDevicePointer(&device, &local, 0), cudaErrorInvalidValue);
    EXPECT_EQ(cudaFreeHost(&local), cudaErrorInvalidValue);
    // Device memory is not host memory, nor the reverse.
    void* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, 64), cudaSuccess);
    EXPECT_EQ(cudaHostGetDevicePointer(&device, d, 0), cudaErrorInvalidValue);
    EXPECT_EQ(cudaFreeHost(d), cudaErrorInvalidValue);
    ASSERT_EQ(cudaFree(d), cudaSuccess);
    HostArray h(16);
    EXPECT_EQ(cudaHostGetDevicePointer(&device, h.p, 1), cudaErrorInvalidValue);
    EXPECT_EQ(cudaFree(h.p), cudaErrorInvalidDevicePointer);
    (void)cudaGetLastError();
}

TEST(HostMemory, CopiesToAndFromDeviceMemory) {
    HostArray h(8);
    for (int i = 0; i < 8; ++i) h.p[i] = static_cast<float>(i);
    DeviceBuffer<float> d(8);
    ASSERT_EQ(cudaMemcpyAsync(d.get(), h.p, 8 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    std::vector<float> back = d.download();
    for (int i = 0; i < 8; ++i) EXPECT_EQ(back[static_cast<std::size_t>(i)], static_cast<float>(i));
}

void add_one(void* x) { ++*static_cast<int*>(x); }

TEST(HostMemory, StreamsWaitOnEventsAndRunHostFunctionsInOrder) {
    cudaStream_t s = nullptr;
    cudaEvent_t e = nullptr;
    ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&e), cudaSuccess);
    ASSERT_EQ(cudaEventRecord(e, s), cudaSuccess);
    EXPECT_EQ(cudaStreamWaitEvent(s, e), cudaSuccess);
    EXPECT_EQ(cudaStreamWaitEvent(s, nullptr), cudaErrorInvalidResourceHandle);
    int calls = 0;
    EXPECT_EQ(cudaLaunchHostFunc(s, add_one, &calls), cudaSuccess);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(cudaLaunchHostFunc(s, nullptr, &calls), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    EXPECT_EQ(cudaEventDestroy(e), cudaSuccess);
    EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
}

struct Read {
    emu::TrafficStats stats;
    std::vector<float> out;
};

// n floats read from host memory `shift` floats past a page boundary, 2x written to device memory.
Read read_shifted(int n, int shift) {
    HostArray h(static_cast<std::size_t>(n + shift));
    for (int i = 0; i < n; ++i) h.p[shift + i] = static_cast<float>(i);
    float* device_view = nullptr;
    EXPECT_EQ(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_view), h.p, 0), cudaSuccess);
    DeviceBuffer<float> out(static_cast<std::size_t>(n));
    read_host(blocks_of(128, n), device_view + shift, out.get(), n);
    return {emu::last_traffic(), out.download()};
}

// 1024 floats: 32 warps of 128 bytes each. Aligned, a warp's 128 bytes are 4 sectors; shifted by
// 4 bytes (or 36) they straddle 5; shifted by a whole sector (32 or 64 bytes) 4 again.
TEST(HostMemoryTraffic, AWarpReadTouchesFourSectorsAlignedFiveMisaligned) {
    const int n = 1024;
    for (const auto& [shift, per_warp] : {std::pair{0, 4u}, {1, 5u}, {9, 5u}, {8, 4u}, {16, 4u}}) {
        SCOPED_TRACE("shift " + std::to_string(4 * shift) + " bytes");
        const Read r = read_shifted(n, shift);
        const emu::TrafficStats& s = r.stats;
        ASSERT_TRUE(s.counted);
        EXPECT_EQ(s.host.load.bytes, 4u * n);
        EXPECT_EQ(s.host.load.accesses, static_cast<std::uint64_t>(n));
        EXPECT_EQ(s.host.load.requests, 32u);
        EXPECT_EQ(s.host.load.sectors, 32u * per_warp);
        EXPECT_EQ(s.host.store, emu::HostAccessCounts{});
        // Host reads are no global loads, and reach neither L2 nor DRAM; the stores are global.
        EXPECT_EQ(s.load, emu::AccessCounts{});
        EXPECT_EQ(s.dram_read_bytes, 0u);
        EXPECT_EQ(s.store.bytes, 4u * n);
        EXPECT_EQ(s.dram_write_bytes, 4u * n);
        for (int i = 0; i < n; ++i) ASSERT_EQ(r.out[static_cast<std::size_t>(i)], 2.0f * static_cast<float>(i));
    }
}

// 33 floats: a full warp and one lane, whose 4 bytes are one sector (aligned floats never
// straddle two); the warp's 128 bytes are 4 sectors aligned, 5 shifted by a float.
TEST(HostMemoryTraffic, APartialWarpCountsTheSectorsItTouches) {
    EXPECT_EQ(read_shifted(33, 0).stats.host.load.sectors, 4u + 1u);
    EXPECT_EQ(read_shifted(33, 0).stats.host.load.requests, 2u);
    EXPECT_EQ(read_shifted(33, 1).stats.host.load.sectors, 5u + 1u);
}

TEST(HostMemoryTraffic, StoresToHostMemoryCountAsHostSectorsWritten) {
    const int n = 256;
    HostArray h(static_cast<std::size_t>(n));
    DeviceBuffer<float> d(std::vector<float>(static_cast<std::size_t>(n), 2.5f));
    write_host(blocks_of(64, n), d.get(), h.p, n);
    const emu::TrafficStats s = emu::last_traffic();
    EXPECT_EQ(s.host.store.bytes, 4u * n);
    EXPECT_EQ(s.host.store.requests, 8u);
    EXPECT_EQ(s.host.store.sectors, 32u);
    EXPECT_EQ(s.host.load, emu::HostAccessCounts{});
    EXPECT_EQ(s.store, emu::AccessCounts{});
    EXPECT_EQ(s.dram_write_bytes, 0u);
    for (int i = 0; i < n; ++i) ASSERT_EQ(h.p[i], 3.5f);
}

TEST(HostMemoryTraffic, CountersNameTheHostSectorsOnlyWhenHostMemoryWasTouched) {
    const Read r = read_shifted(1024, 1);
    const std::vector<Counter> cs = emu::traffic_counters(r.stats);
    auto value = [&](const char* name) {
        const Counter* c = find_counter(cs, name);
        EXPECT_NE(c, nullptr) << name;
        return c ? c->value : -1;
    };
    EXPECT_EQ(value("emu.host_sectors_read"), 160);
    EXPECT_EQ(value("emu.host_read_bytes"), 160 * 32);
    EXPECT_EQ(value("emu.host_load_bytes"), 4096);
    EXPECT_EQ(value("emu.host_load_requests"), 32);
    EXPECT_EQ(value("emu.global_load_bytes"), 0);
    EXPECT_EQ(value("dram__bytes_read.sum"), 0);

    DeviceBuffer<float> x(std::vector<float>(32, 1.0f)), y(std::vector<float>(32, 1.0f));
    saxpy(blocks_of(32, 32), 2.0f, x.get(), y.get(), 32);
    const std::vector<Counter> device_only = emu::traffic_counters(emu::last_traffic());
    EXPECT_EQ(find_counter(device_only, "emu.host_sectors_read"), nullptr);
}

}  // namespace
}  // namespace memwall::emu_test
