// Kernels that break CUDA's rules: each is reported as a LaunchError, none hangs.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "cuda_emu/cuda.hpp"
#include "device_buffer.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

__global__ void launches_a_kernel(int* p) {
    memwall::cuda::launch(memwall::cuda::LaunchConfig{}, launches_a_kernel, p);
}

namespace memwall::emu_test {
namespace {

using namespace cuda_emu;

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

template <class F>
std::string launch_error(F&& f) {
    try {
        f();
    } catch (const cuda::LaunchError& e) {
        return e.what();
    }
    return "no error";
}

TEST(Faults, ThreadsAtDifferentBarriers) {
    DeviceBuffer<int> out(64);
    const std::string e = launch_error([&] { different_barriers(grid_of(1, 64), out.get()); });
    EXPECT_PRED2(contains, e, "block (0,0,0)");
    EXPECT_PRED2(contains, e, "threads wait at different barriers: thread 0 at __syncthreads (faults.cuh:");
    EXPECT_PRED2(contains, e, "thread 32 at __syncthreads (faults.cuh:");
}

TEST(Faults, AThreadReturningBeforeABarrierIsAnErrorUnderTheStrictRule) {
    const int n = 100;
    DeviceBuffer<float> in(std::vector<float>(n, 1.0f)), out(n);
    const std::string e = launch_error([&] { exit_before_barrier(grid_of(1, 128), in.get(), out.get(), n); });
    EXPECT_PRED2(contains, e, "thread 100 returned while 100 threads wait at __syncthreads (faults.cuh:");
    EXPECT_PRED2(contains, e, "BarrierRule::exited_threads_arrive");
}

TEST(Faults, ExitedThreadsArriveUnderTheSm70Rule) {
    const int n = 100;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
    DeviceBuffer<float> in(x), out(n);
    LaunchConfig c = grid_of(2, 64);
    c.emu.barrier_rule = emu::BarrierRule::exited_threads_arrive;
    exit_before_barrier(c, in.get(), out.get(), n);
    const std::vector<float> got = out.download();
    EXPECT_EQ(got[0], 0.0f);
    for (int i = 1; i < n; ++i) EXPECT_EQ(got[i], x[i - 1]);
}

TEST(Faults, DeadlockSaysWhereEachThreadWaits) {
    DeviceBuffer<int> out(64);
    const std::string e = launch_error([&] { shuffle_against_barrier(grid_of(1, 64), out.get()); });
    EXPECT_PRED2(contains, e, "deadlock");
    EXPECT_PRED2(contains, e, "thread 0 wait at __shfl_sync with mask 0xffffffff (faults.cuh:");
    EXPECT_PRED2(contains, e, "threads 1-31 wait at __syncthreads (faults.cuh:");
    EXPECT_PRED2(contains, e, "threads 33-63 wait at __syncthreads");
}

TEST(Faults, AShuffleReadingALaneOutsideItsMask) {
    DeviceBuffer<int> out(32);
    const std::string e = launch_error([&] { shuffle_outside_mask(grid_of(1, 32), out.get()); });
    EXPECT_PRED2(contains, e, "lane 0 of warp 0 reads lane 20 in __shfl_sync");
    EXPECT_PRED2(contains, e, "which is not in the mask 0x0000ffff");
}

TEST(Faults, AShuffleReadingALaneTheBlockDoesNotHave) {
    DeviceBuffer<int> in(std::vector<int>(48, 1)), out(8 * 48);
    const std::string e = launch_error([&] { shuffles(grid_of(1, 48), in.get(), out.get()); });
    EXPECT_PRED2(contains, e, "reads lane 16");
    EXPECT_PRED2(contains, e, "which the block does not have");
}

TEST(Faults, ASpinningThreadTimesOut) {
    DeviceBuffer<int> flag(std::vector<int>{0});
    LaunchConfig c = grid_of(1, 32);
    c.emu.timeout = std::chrono::milliseconds(100);
    const auto start = std::chrono::steady_clock::now();
    const std::string e = launch_error([&] { spin_on_flag(c, flag.get()); });
    EXPECT_PRED2(contains, e, "still running after the 100 ms timeout");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(Faults, ATrapEndsTheLaunch) {
    const std::string e = launch_error([&] { trap_in_thread(grid_of(2, 64), 5); });
    EXPECT_PRED2(contains, e, "block (0,0,0)");
    EXPECT_PRED2(contains, e, "thread 5 threw: __trap() at faults.cuh:");
}

TEST(Faults, InvalidConfigurations) {
    LaunchConfig c = grid_of(1, 2048);
    EXPECT_PRED2(contains, launch_error([&] { trap_in_thread(c, 99999); }), "exceeds 1024 threads");
    c = grid_of(0, 32);
    EXPECT_PRED2(contains, launch_error([&] { trap_in_thread(c, 99999); }), "has a zero dimension");
    c = grid_of(1, 32);
    c.dynamic_shared = 300 * 1024;
    EXPECT_PRED2(contains, launch_error([&] { trap_in_thread(c, 99999); }), "227 KiB");
}

TEST(Faults, KernelsCannotLaunchKernels) {
    DeviceBuffer<int> p(1);
    EXPECT_PRED2(contains, launch_error([&] { cuda::launch(grid_of(1, 1), launches_a_kernel, p.get()); }),
                 "a kernel cannot launch kernels");
}

TEST(Faults, IntrinsicsOutsideAKernel) {
    EXPECT_PRED2(contains, launch_error([] { __syncthreads(); }), "__syncthreads called outside a kernel");
    EXPECT_PRED2(contains, launch_error([] { __syncwarp(); }), "__syncwarp called outside a kernel");
}

TEST(Faults, TheEmulatorRecoversAfterAFailedLaunch) {
    DeviceBuffer<int> out(64);
    EXPECT_NE(launch_error([&] { shuffle_against_barrier(grid_of(1, 64), out.get()); }), "no error");
    DeviceBuffer<float> x(std::vector<float>(64, 1.0f)), y(std::vector<float>(64, 2.0f));
    saxpy(grid_of(1, 64), 3.0f, x.get(), y.get(), 64);
    EXPECT_EQ(y.download(), std::vector<float>(64, 5.0f));
}

}  // namespace
}  // namespace memwall::emu_test
