// Warp intrinsics against CPU references written from CUDA's definitions.
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <vector>

#include "device_buffer.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test {
namespace {

using namespace cuda_emu;

// The lane `lane` reads in a shuffle over segments of `width` lanes (CUDA programming guide).
int shfl(int lane, int src, int width) { return (lane & ~(width - 1)) + (src & (width - 1)); }
int shfl_up(int lane, int delta, int width) { return lane % width >= delta ? lane - delta : lane; }
int shfl_down(int lane, int delta, int width) { return lane % width + delta < width ? lane + delta : lane; }

TEST(Warp, ShufflesMatchTheirDefinitions) {
    const int n = 128;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = 3 * i + 1;
    DeviceBuffer<int> din(in), dout(8 * n);
    shuffles(grid_of(2, 64), din.get(), dout.get());
    const std::vector<int> out = dout.download();
    for (int i = 0; i < n; ++i) {
        const int lane = i % 32, warp = i - lane;
        auto v = [&](int l) { return in[warp + l]; };
        const std::array<int, 8> want = {
            v(shfl(lane, 3, 32)), v((lane + 1) % 32),  v(shfl_up(lane, 1, 32)), v(shfl_down(lane, 1, 32)),
            v(lane ^ 1),          v(shfl(lane, 2, 8)), v(shfl_up(lane, 2, 8)),  v(shfl_down(lane, 3, 16))};
        for (int k = 0; k < 8; ++k) ASSERT_EQ(out[8 * i + k], want[k]) << "thread " << i << " result " << k;
    }
}

TEST(Warp, ButterflySumsOfDoubles) {
    std::vector<double> x(256);
    std::iota(x.begin(), x.end(), 0.5);
    DeviceBuffer<double> dx(x), sums(8);
    warp_sums(grid_of(2, 128), dx.get(), sums.get());
    const std::vector<double> got = sums.download();
    for (int w = 0; w < 8; ++w) EXPECT_EQ(got[w], std::accumulate(x.begin() + 32 * w, x.begin() + 32 * (w + 1), 0.0));
}

TEST(Warp, VotesFollowDivergentBranches) {
    const int n = 64;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 128;
    DeviceBuffer<int> din(in);
    DeviceBuffer<unsigned> dout(6 * n);
    votes(grid_of(1, n), din.get(), dout.get());
    const std::vector<unsigned> out = dout.download();
    for (int w = 0; w < n / 32; ++w) {
        auto ballot = [&](auto pred, unsigned mask) {
            unsigned b = 0;
            for (int l = 0; l < 32; ++l)
                if ((mask >> l & 1u) && pred(in[32 * w + l])) b |= 1u << l;
            return b;
        };
        const unsigned odd = ballot([](int v) { return v & 1; }, ~0u);
        for (int l = 0; l < 32; ++l) {
            const int v = in[32 * w + l];
            const unsigned* o = &out[6 * (32 * w + l)];
            const unsigned mine = (v & 1) ? odd : ~odd;
            EXPECT_EQ(o[0], odd);
            EXPECT_EQ(o[1], ballot([](int x) { return x > 100; }, ~0u) != 0);
            EXPECT_EQ(o[2], 1u);
            EXPECT_EQ(o[3], ballot([](int x) { return x > 50; }, mine));
            if (v & 1)
                EXPECT_EQ(o[4], ballot([](int x) { return x > 10; }, mine) == mine);
            else
                EXPECT_EQ(o[4], ballot([](int x) { return x > 90; }, mine) != 0);
            EXPECT_EQ(o[5], ~0u);
        }
    }
}

TEST(Warp, ExitedLanesNamedInAMaskAreIgnored) {
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[i] = i % 3 == 0 ? 1 : 0;
    DeviceBuffer<int> din(in);
    DeviceBuffer<unsigned> dout(2 * 64);
    votes_after_exit(grid_of(1, 64), din.get(), dout.get(), 20);  // lanes 20-31 return
    const std::vector<unsigned> out = dout.download();
    for (int w = 0; w < 2; ++w) {
        unsigned want = 0;
        for (int l = 0; l < 20; ++l)
            if (in[32 * w + l]) want |= 1u << l;
        for (int l = 0; l < 20; ++l) {
            EXPECT_EQ(out[2 * (32 * w + l)], want);
            EXPECT_EQ(out[2 * (32 * w + l) + 1], 0xfffffu);
        }
        EXPECT_EQ(out[2 * (32 * w + 20)], 0xffffffffu);  // never written: cudaMalloc's poison
    }
}

TEST(Warp, APartialLastWarpVotesWithTheLanesItHas) {
    std::vector<int> in(48, 3);  // odd: every lane takes the first branch
    DeviceBuffer<int> din(in);
    DeviceBuffer<unsigned> dout(6 * 48);
    votes(grid_of(1, 48), din.get(), dout.get());
    const std::vector<unsigned> out = dout.download();
    EXPECT_EQ(out[6 * 0], ~0u);
    EXPECT_EQ(out[6 * 40], 0xffffu);      // warp 1 has lanes 0-15
    EXPECT_EQ(out[6 * 40 + 5], 0xffffu);  // __activemask
}

}  // namespace
}  // namespace memwall::emu_test
