#include "cuda_emu/traffic.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_emu/cuda.hpp"
#include "device_buffer.hpp"
#include "metrics/levels.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

// Compiled here, without the counting instrumentation.
__global__ void fill_uncounted(float* p) { p[threadIdx.x] = 1.0f; }

namespace memwall::emu_test {
namespace {

using namespace cuda_emu;

class SaxpyTraffic : public ::testing::TestWithParam<int> {};

// 8n bytes loaded, 4n stored, whatever the tail of the last block.
TEST_P(SaxpyTraffic, IsExact) {
    const int n = GetParam();
    std::vector<float> x(static_cast<std::size_t>(n)), y(x.size());
    std::iota(x.begin(), x.end(), 1.0f);
    std::iota(y.begin(), y.end(), 100.0f);
    DeviceBuffer<float> dx(x), dy(y);
    saxpy(blocks_of(128, n), 2.0f, dx.get(), dy.get(), n);
    const emu::TrafficStats s = emu::last_traffic();
    ASSERT_TRUE(s.counted);
    EXPECT_EQ(s.launches, 1u);
    const auto u = static_cast<std::uint64_t>(n);
    EXPECT_EQ(s.load.bytes, 8 * u);
    EXPECT_EQ(s.store.bytes, 4 * u);
    EXPECT_EQ(s.load.accesses, 2 * u);
    EXPECT_EQ(s.store.accesses, u);
    EXPECT_EQ(s.atomic, emu::AccessCounts{});
    // Warps with an active lane make one request per access site; lanes cover whole sectors.
    const std::uint64_t warps = (u + 31) / 32, sectors = (4 * u + 31) / 32;
    EXPECT_EQ(s.load.requests, 2 * warps);
    EXPECT_EQ(s.store.requests, warps);
    EXPECT_EQ(s.load.sectors, 2 * sectors);
    EXPECT_EQ(s.store.sectors, sectors);
    EXPECT_EQ(s.load.l2_sectors, 2 * sectors);
    EXPECT_EQ(s.store.l2_sectors, sectors);
    EXPECT_EQ(s.distinct_sectors, 2 * sectors);
    EXPECT_EQ(s.distinct_sectors_read, 2 * sectors);
    EXPECT_EQ(s.distinct_sectors_written, sectors);
    EXPECT_EQ(s.dram_read_bytes, 2 * sectors * 32);
    EXPECT_EQ(s.dram_write_bytes, sectors * 32);
    const std::vector<float> out = dy.download();
    for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 2.0f * x[i] + y[i]);
}

INSTANTIATE_TEST_SUITE_P(Sizes, SaxpyTraffic, ::testing::Values(1024, 1000, 33, 1));

TEST(Traffic, CountsTheBytesOfEachType) {
    const int n = 300;
    DeviceBuffer<float> in(std::vector<float>(n, 1.5f));
    DeviceBuffer<__nv_bfloat16> out(n);
    to_bfloat16(blocks_of(64, n), in.get(), out.get(), n);
    const emu::TrafficStats s = emu::last_traffic();
    EXPECT_EQ(s.load.bytes, 4u * n);
    EXPECT_EQ(s.store.bytes, 2u * n);
    for (__nv_bfloat16 v : out.download()) ASSERT_EQ(static_cast<float>(v), 1.5f);
}

struct Transposed {
    emu::TrafficStats naive, tiled;
};

// A 64 x 64 transpose, naive and through shared tiles, with the given L2 model.
Transposed transpose_64(const emu::CacheConfig& l2) {
    constexpr int n = 64;
    std::vector<float> host(n * n);
    std::iota(host.begin(), host.end(), 0.0f);
    DeviceBuffer<float> in(host), out_naive(n * n), out_tiled(n * n);
    LaunchConfig c;
    c.block = dim3(32, 8);
    c.emu.l2 = l2;
    c.grid = dim3(n / 32, n / 8);
    transpose_naive(c, in.get(), out_naive.get(), n, n);
    Transposed t;
    t.naive = emu::last_traffic();
    c.grid = dim3(n / 32, n / 32);
    transpose_tiled(c, in.get(), out_tiled.get(), n, n);
    t.tiled = emu::last_traffic();
    const std::vector<float> a = out_naive.download(), b = out_tiled.download();
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < n; ++col) {
            EXPECT_EQ(a[col * n + r], host[r * n + col]);
            EXPECT_EQ(b[col * n + r], host[r * n + col]);
        }
    return t;
}

TEST(Traffic, TransposesMoveTheSameBytesInDifferentSectors) {
    const Transposed t = transpose_64(emu::EmulationOptions{}.l2);
    for (const emu::TrafficStats* s : {&t.naive, &t.tiled}) {
        EXPECT_EQ(s->load.bytes, 16384u);
        EXPECT_EQ(s->store.bytes, 16384u);
        EXPECT_EQ(s->load.requests, 128u);
        EXPECT_EQ(s->store.requests, 128u);
        EXPECT_EQ(s->load.sectors, 512u);  // rows: 4 sectors per warp
        EXPECT_EQ(s->distinct_sectors, 1024u);
        // The H100-sized L2 holds everything: each sector crosses DRAM once.
        EXPECT_EQ(s->dram_read_bytes, 16384u);
        EXPECT_EQ(s->dram_write_bytes, 16384u);
    }
    EXPECT_EQ(t.naive.store.sectors, 4096u);  // columns: a sector per lane
    EXPECT_EQ(t.tiled.store.sectors, 512u);
    // The tile: each element stored and loaded once, by 4 warp requests per warp and phase.
    EXPECT_EQ(t.naive.shared, emu::SharedTraffic{});
    const emu::SharedAccessCounts tile{16384, 4096, 128};
    EXPECT_EQ(t.tiled.shared.store, tile);
    EXPECT_EQ(t.tiled.shared.load, tile);
    EXPECT_EQ(t.tiled.shared.atomic, emu::SharedAccessCounts{});
    EXPECT_EQ(t.naive.store.l2_sectors, 4096u);
    EXPECT_EQ(t.tiled.store.l2_sectors, 512u);
}

TEST(Traffic, AnL2SmallerThanTheNaiveTransposesColumnsWritesBackEachSectorPerWarp) {
    // 16 lines of 128 bytes: the 32 output lines a naive warp writes do not fit, so each of
    // the 8 warps that fill a sector finds it evicted and writes it back again.
    const Transposed t = transpose_64({2048, 128, 16});
    EXPECT_EQ(t.naive.dram_read_bytes, 16384u);
    EXPECT_EQ(t.naive.dram_write_bytes, 8u * 16384u);
    EXPECT_EQ(t.tiled.dram_read_bytes, 16384u);
    EXPECT_EQ(t.tiled.dram_write_bytes, 16384u);
}

TEST(Traffic, WithoutAnL2EverySectorRequestReachesDram) {
    const Transposed t = transpose_64({0, 128, 16});
    EXPECT_EQ(t.naive.dram_write_bytes, 4096u * 32);
    EXPECT_EQ(t.tiled.dram_write_bytes, 512u * 32);
}

// rotate_tile over `blocks` tiles of doubles, with its exact global and shared counts.
void expect_rotated_tiles(int blocks, int shift) {
    using T = double;
    const int n = blocks * kRotateTileThreads;
    std::vector<T> x(static_cast<std::size_t>(n));
    std::iota(x.begin(), x.end(), T{1});
    DeviceBuffer<T> in(x), out(x.size());
    LaunchConfig c;
    c.grid = dim3(static_cast<unsigned>(blocks));
    c.block = dim3(kRotateTileThreads);
    rotate_tile(c, in.get(), out.get(), shift);
    const emu::TrafficStats s = emu::last_traffic();
    const auto threads = static_cast<std::uint64_t>(n), warps = threads / 32;
    // Global memory: one load and one store per thread, as if the tile were not there.
    EXPECT_EQ(s.load.bytes, sizeof(T) * threads);
    EXPECT_EQ(s.load.accesses, threads);
    EXPECT_EQ(s.load.requests, warps);
    EXPECT_EQ(s.store.bytes, sizeof(T) * threads);
    EXPECT_EQ(s.store.accesses, threads);
    EXPECT_EQ(s.store.requests, warps);
    EXPECT_EQ(s.atomic, emu::AccessCounts{});
    // The tile: one store and two loads per thread, from one and two instructions.
    EXPECT_EQ(s.shared.store, (emu::SharedAccessCounts{sizeof(T) * threads, threads, warps}));
    EXPECT_EQ(s.shared.load, (emu::SharedAccessCounts{2 * sizeof(T) * threads, 2 * threads, 2 * warps}));
    EXPECT_EQ(s.shared.atomic, emu::SharedAccessCounts{});
    const std::vector<T> got = out.download();
    for (int b = 0; b < n; b += kRotateTileThreads)
        for (int t = 0; t < kRotateTileThreads; ++t)
            ASSERT_EQ(got[static_cast<std::size_t>(b + t)],
                      x[static_cast<std::size_t>(b + (t + shift) % kRotateTileThreads)] +
                          x[static_cast<std::size_t>(b + kRotateTileThreads - 1 - t)]);
}

TEST(Traffic, CountsAStaticSharedTileApartFromGlobalMemory) {
    emu::TrafficScope scope;
    expect_rotated_tiles(3, 5);
    expect_rotated_tiles(2, 63);
    EXPECT_EQ(scope.stats().shared.store.bytes, 8u * (192 + 128));
    EXPECT_EQ(scope.stats().shared.load.accesses, 2u * (192 + 128));
}

// A histogram of 200 values into 16 bins, in blocks of 64 threads (4 blocks, 7 warps with values).
emu::TrafficStats shared_histogram_200() {
    constexpr int n = 200, bins = 16, threads = 64, blocks = (n + threads - 1) / threads;
    std::vector<int> values(n);
    for (int i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = (7 * i) % 23;
    DeviceBuffer<int> dv(values);
    DeviceBuffer<unsigned> hist(std::vector<unsigned>(bins + 1, 0u));
    LaunchConfig c;
    c.grid = dim3(blocks);
    c.block = dim3(threads);
    c.dynamic_shared = (bins + 1) * sizeof(unsigned);
    shared_histogram(c, dv.get(), n, hist.get(), bins);
    const emu::TrafficStats s = emu::last_traffic();
    std::vector<unsigned> want(bins + 1, 0u);
    for (int v : values) ++want[static_cast<std::size_t>(v % bins)];
    want[bins] = blocks;  // one thread per block wins the election
    EXPECT_EQ(hist.download(), want);
    return s;
}

TEST(Traffic, CountsDynamicSharedMemoryAndSharedAtomics) {
    const emu::TrafficStats s = shared_histogram_200();
    ASSERT_TRUE(s.counted);
    // Global memory: the values, and per block an atomicAdd per bin and one for the election.
    EXPECT_EQ(s.load.bytes, 4u * 200);
    EXPECT_EQ(s.load.accesses, 200u);
    EXPECT_EQ(s.store, emu::AccessCounts{});
    EXPECT_EQ(s.atomic.bytes, 4u * 4 * 17);
    EXPECT_EQ(s.atomic.accesses, 4u * 17);
    // Shared: per block 16 bins and the flag cleared (two instructions, in warp 0), 16 bins
    // read back; an atomicAdd per value (7 warps) and an atomicCAS per thread (8 warps).
    EXPECT_EQ(s.shared.store, (emu::SharedAccessCounts{4u * 4 * 17, 4u * 17, 4u * 2}));
    EXPECT_EQ(s.shared.load, (emu::SharedAccessCounts{4u * 4 * 16, 4u * 16, 4u}));
    EXPECT_EQ(s.shared.atomic, (emu::SharedAccessCounts{4u * (200 + 256), 200u + 256, 7u + 8}));
}

TEST(Traffic, SharedCountersCarrySassNamesAndReachNoMemoryLevel) {
    const std::vector<Counter> cs = emu::traffic_counters(shared_histogram_200());
    auto value = [&](std::string_view name) {
        const Counter* c = find_counter(cs, name);
        EXPECT_NE(c, nullptr) << name;
        return c ? c->value : -1;
    };
    EXPECT_EQ(value("sm__sass_data_bytes_mem_shared_op_ld.sum"), 4 * 4 * 16);
    EXPECT_EQ(value("sm__sass_data_bytes_mem_shared_op_st.sum"), 4 * 4 * 17);
    EXPECT_EQ(value("sm__sass_data_bytes_mem_shared_op_atom.sum"), 4 * 456);
    EXPECT_EQ(value("emu.shared_loads"), 64);
    EXPECT_EQ(value("emu.shared_stores"), 68);
    EXPECT_EQ(value("emu.shared_atomics"), 456);
    EXPECT_EQ(value("emu.shared_load_requests"), 4);
    EXPECT_EQ(value("emu.shared_store_requests"), 8);
    EXPECT_EQ(value("emu.shared_atomic_requests"), 15);
    EXPECT_EQ(find_counter(cs, "sm__sass_data_bytes_mem_shared_op_ld.sum")->unit, "B");
    // Shared bytes are no level of the memory hierarchy: the levels come from global traffic.
    const std::vector<LevelBytes> levels = bytes_by_level(cs);
    EXPECT_EQ(levels.size(), 3u);
    for (const LevelBytes& l : levels) {
        EXPECT_TRUE(l.level == "dram" || l.level == "l2" || l.level == "l1") << l.level;
        EXPECT_EQ(l.counters.find("shared"), std::string::npos) << l.counters;
    }
}

TEST(Traffic, ScopesSumTheirLaunches) {
    DeviceBuffer<float> x(std::vector<float>(64, 1.0f)), y(std::vector<float>(64, 1.0f));
    emu::TrafficScope outer;
    saxpy(blocks_of(64, 64), 1.0f, x.get(), y.get(), 64);
    {
        emu::TrafficScope inner;
        saxpy(blocks_of(64, 64), 1.0f, x.get(), y.get(), 32);
        EXPECT_EQ(inner.stats().launches, 1u);
        EXPECT_EQ(inner.stats().load.bytes, 8u * 32);
    }
    EXPECT_TRUE(outer.stats().counted);
    EXPECT_EQ(outer.stats().launches, 2u);
    EXPECT_EQ(outer.stats().load.bytes, 8u * 96);
    EXPECT_EQ(outer.stats().store.bytes, 4u * 96);
}

// y = a x + y twice over 1024 floats (4 KiB each): the second launch of a scope finds x and y in
// L2, as a GPU's second kernel does; a launch outside a scope, or a new scope, starts cold.
TEST(Traffic, TheL2StaysWarmAcrossTheLaunchesOfAScope) {
    constexpr int n = 1024;
    constexpr std::uint64_t array = 4 * n;
    DeviceBuffer<float> x(std::vector<float>(n, 1.0f)), y(std::vector<float>(n, 1.0f));
    saxpy(blocks_of(128, n), 1.0f, x.get(), y.get(), n);
    const emu::TrafficStats alone = emu::last_traffic();
    EXPECT_EQ(alone.dram_read_bytes, 2 * array);  // cold
    EXPECT_EQ(alone.dram_write_bytes, array);
    saxpy(blocks_of(128, n), 1.0f, x.get(), y.get(), n);
    EXPECT_EQ(emu::last_traffic().dram_read_bytes, 2 * array);  // outside a scope: cold again
    for (int scope = 0; scope < 2; ++scope) {
        emu::TrafficScope pass;
        saxpy(blocks_of(128, n), 1.0f, x.get(), y.get(), n);
        EXPECT_EQ(emu::last_traffic().dram_read_bytes, 2 * array) << "a scope's first launch starts cold";
        saxpy(blocks_of(128, n), 1.0f, x.get(), y.get(), n);
        EXPECT_EQ(emu::last_traffic().dram_read_bytes, 0u) << "the second finds both arrays in L2";
        // Its writes are still written back at its end, once per launch that dirtied them.
        EXPECT_EQ(emu::last_traffic().dram_write_bytes, array);
        {
            emu::TrafficScope nested;  // part of the same pass: still warm
            saxpy(blocks_of(128, n), 1.0f, x.get(), y.get(), n);
            EXPECT_EQ(nested.stats().dram_read_bytes, 0u);
        }
        EXPECT_EQ(pass.stats().launches, 3u);
        EXPECT_EQ(pass.stats().dram_read_bytes, 2 * array);
        EXPECT_EQ(pass.stats().dram_write_bytes, 3 * array);
    }
}

TEST(Traffic, CountersCarryCuptiNamesAndTheEmuSource) {
    DeviceBuffer<float> x(std::vector<float>(256, 1.0f)), y(std::vector<float>(256, 1.0f));
    saxpy(blocks_of(128, 256), 1.0f, x.get(), y.get(), 256);
    const std::vector<Counter> cs = emu::traffic_counters(emu::last_traffic());
    for (const Counter& c : cs) EXPECT_EQ(c.source, CounterSource::emu) << c.name;
    auto value = [&](std::string_view name) {
        const Counter* c = find_counter(cs, name);
        EXPECT_NE(c, nullptr) << name;
        return c ? c->value : -1;
    };
    EXPECT_EQ(value("emu.global_load_bytes"), 2048);
    EXPECT_EQ(value("emu.global_store_bytes"), 1024);
    EXPECT_EQ(value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 64);
    EXPECT_EQ(value("lts__t_sectors_op_write.sum"), 32);
    EXPECT_EQ(value("lts__t_bytes.sum"), 96 * 32);
    EXPECT_EQ(value("dram__bytes_read.sum"), 2048);
    EXPECT_EQ(value("dram__bytes_write.sum"), 1024);
    EXPECT_EQ(find_counter(cs, "dram__bytes_write.sum")->unit, "B");
}

TEST(Traffic, AKernelCompiledWithoutInstrumentationIsNotCounted) {
    DeviceBuffer<float> p(32);
    LaunchConfig c;
    c.block = dim3(32);
    cuda::launch(c, fill_uncounted, p.get());
    EXPECT_EQ(p.download(), std::vector<float>(32, 1.0f));
    EXPECT_FALSE(emu::last_traffic().counted);
    EXPECT_THROW(emu::traffic_counters(emu::last_traffic()), std::invalid_argument);
}

}  // namespace
}  // namespace memwall::emu_test
