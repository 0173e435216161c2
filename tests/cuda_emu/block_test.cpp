// Block-level emulation: barriers, their votes, block orders, shared memory poisoning and
// dynamic shared memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "device_buffer.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test {
namespace {

using namespace cuda_emu;

TEST(Block, ReducesThroughSharedMemoryWithBarriers) {
    const int n = 1000;  // not a multiple of the block
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);
    const unsigned blocks = (n + kBlockSumThreads - 1) / kBlockSumThreads;
    DeviceBuffer<float> dx(x), partial(blocks);
    block_sum(grid_of(blocks, kBlockSumThreads), dx.get(), partial.get(), n);
    const std::vector<float> got = partial.download();
    for (unsigned b = 0; b < blocks; ++b) {
        const int begin = static_cast<int>(b) * kBlockSumThreads;
        const int end = std::min(n, begin + kBlockSumThreads);
        EXPECT_EQ(got[b], std::accumulate(x.begin() + begin, x.begin() + end, 0.0f)) << b;
    }
}

TEST(Block, BarrierVotesCountAndAnd) {
    const unsigned threads = 100;  // a partial last warp
    std::vector<int> p(3 * threads, 0);
    std::fill(p.begin(), p.begin() + threads, 7);                      // block 0: all true
    for (unsigned t = 0; t < threads; t += 3) p[2 * threads + t] = 1;  // block 2: 34 true
    DeviceBuffer<int> predicates(p), out(9);
    barrier_votes(grid_of(3, threads), predicates.get(), out.get());
    EXPECT_EQ(out.download(), (std::vector<int>{100, 1, 1, 0, 0, 0, 34, 0, 1}));
}

std::vector<unsigned> block_order(emu::BlockOrder order, std::uint64_t seed) {
    DeviceBuffer<unsigned> next(std::vector<unsigned>{0}), ran(16);
    LaunchConfig c = grid_of(16, 32);
    c.emu.order = order;
    c.emu.seed = seed;
    block_ticket(c, next.get(), ran.get());
    return ran.download();
}

TEST(Block, RunsBlocksInTheChosenOrder) {
    std::vector<unsigned> forward(16);
    std::iota(forward.begin(), forward.end(), 0u);
    std::vector<unsigned> reverse(forward.rbegin(), forward.rend());
    EXPECT_EQ(block_order(emu::BlockOrder::forward, 0), forward);
    EXPECT_EQ(block_order(emu::BlockOrder::reverse, 0), reverse);

    const std::vector<unsigned> shuffled = block_order(emu::BlockOrder::shuffled, 1);
    EXPECT_NE(shuffled, forward);
    EXPECT_NE(shuffled, reverse);
    EXPECT_TRUE(std::is_permutation(shuffled.begin(), shuffled.end(), forward.begin()));
    EXPECT_EQ(block_order(emu::BlockOrder::shuffled, 1), shuffled);  // reproducible
    EXPECT_NE(block_order(emu::BlockOrder::shuffled, 2), shuffled);
}

TEST(Block, TwoDimensionalGridsVisitEveryBlock) {
    DeviceBuffer<unsigned> next(std::vector<unsigned>{0}), ran(24);
    LaunchConfig c;
    c.grid = dim3(3, 2, 2);  // block_ticket records blockIdx.x only
    c.block = dim3(4, 2);    // threads (0,0) and (0,1) both take a ticket
    block_ticket(c, next.get(), ran.get());
    std::vector<unsigned> want;
    for (int yz = 0; yz < 4; ++yz)
        for (unsigned x : {0u, 0u, 1u, 1u, 2u, 2u}) want.push_back(x);
    EXPECT_EQ(ran.download(), want);
}

TEST(Block, PoisonedSharedMemoryExposesReadsBeforeWrites) {
    DeviceBuffer<float> out(4);
    read_before_write(grid_of(4, 32), out.get());
    for (float v : out.download()) EXPECT_TRUE(std::isnan(v));
}

TEST(Block, WithoutPoisonAReadBeforeWriteSeesTheBlockThatRanBefore) {
    DeviceBuffer<float> out(4);
    LaunchConfig c = grid_of(4, 32);
    c.emu.poison_shared = false;
    read_before_write(c, out.get());
    std::vector<float> got = out.download();
    EXPECT_EQ(std::vector<float>(got.begin() + 1, got.end()), (std::vector<float>{0, 1, 2}));
    c.emu.order = emu::BlockOrder::reverse;
    read_before_write(c, out.get());
    got = out.download();
    EXPECT_EQ(std::vector<float>(got.begin(), got.end() - 1), (std::vector<float>{1, 2, 3}));
}

template <class T>
void expect_reversed_chunks() {
    const int n = 1000, threads = 128;
    std::vector<T> x(n);
    std::iota(x.begin(), x.end(), T{1});
    DeviceBuffer<T> in(x), out(n);
    LaunchConfig c = grid_of((n + threads - 1) / threads, threads);
    c.dynamic_shared = threads * sizeof(T);
    reverse_chunks(c, in.get(), out.get(), n);
    std::vector<T> want = x;
    for (int b = 0; b < n; b += threads) std::reverse(want.begin() + b, want.begin() + std::min(n, b + threads));
    EXPECT_EQ(out.download(), want);
}

TEST(Block, DynamicSharedMemoryHoldsEachBlocksData) {
    expect_reversed_chunks<float>();
    expect_reversed_chunks<double>();
}

}  // namespace
}  // namespace memwall::emu_test
