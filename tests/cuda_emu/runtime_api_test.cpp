#include "cuda_emu/runtime_api.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

TEST(RuntimeApi, MallocGivesAlignedPoisonedMemory) {
    float* p = nullptr;
    ASSERT_EQ(cudaMalloc(&p, 10 * sizeof(float)), cudaSuccess);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 256, 0u);
    std::vector<float> host(10);
    ASSERT_EQ(cudaMemcpy(host.data(), p, sizeof(float) * 10, cudaMemcpyDeviceToHost), cudaSuccess);
    for (float v : host) EXPECT_TRUE(std::isnan(v));
    EXPECT_EQ(cudaFree(p), cudaSuccess);
}

TEST(RuntimeApi, FreedMemoryIsReused) {
    void* first = nullptr;
    ASSERT_EQ(cudaMalloc(&first, 1 << 20), cudaSuccess);
    ASSERT_EQ(cudaFree(first), cudaSuccess);
    void* again = nullptr;
    ASSERT_EQ(cudaMalloc(&again, 1 << 20), cudaSuccess);
    ASSERT_EQ(cudaFree(again), cudaSuccess);
    for (int i = 0; i < 10; ++i) {
        void* p = nullptr;
        ASSERT_EQ(cudaMalloc(&p, 1 << 20), cudaSuccess);
        EXPECT_EQ(p, again);
        ASSERT_EQ(cudaFree(p), cudaSuccess);
    }
}

TEST(RuntimeApi, CopiesAndSetsInsideAllocations) {
    int* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, 4 * sizeof(int)), cudaSuccess);
    const std::vector<int> src = {1, 2, 3, 4};
    ASSERT_EQ(cudaMemcpy(d, src.data(), 16, cudaMemcpyHostToDevice), cudaSuccess);
    int* e = nullptr;
    ASSERT_EQ(cudaMalloc(&e, 16), cudaSuccess);
    ASSERT_EQ(cudaMemcpyAsync(e, d, 16, cudaMemcpyDeviceToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemset(e, 0, 8), cudaSuccess);
    std::vector<int> back(4);
    ASSERT_EQ(cudaMemcpy(back.data(), e, 16, cudaMemcpyDefault), cudaSuccess);
    EXPECT_EQ(back, (std::vector<int>{0, 0, 3, 4}));
    cudaFree(d);
    cudaFree(e);
}

TEST(RuntimeApi, RangesOutsideAnAllocationAreInvalid) {
    char* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, 100), cudaSuccess);
    std::vector<char> host(200);
    EXPECT_EQ(cudaMemcpy(d, host.data(), 101, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemcpy(host.data(), d + 50, 51, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemcpy(host.data(), host.data() + 100, 10, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemset(host.data(), 0, 10), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemcpy(d, host.data(), 10, static_cast<cudaMemcpyKind>(7)), cudaErrorInvalidMemcpyDirection);
    EXPECT_EQ(cudaMemcpy(d, host.data(), 100, cudaMemcpyHostToDevice), cudaSuccess);
    cudaFree(d);
}

TEST(RuntimeApi, FreeingWhatWasNotAllocated) {
    int x = 0;
    EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
    EXPECT_EQ(cudaFree(&x), cudaErrorInvalidDevicePointer);
    void* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, 8), cudaSuccess);
    EXPECT_EQ(cudaFree(d), cudaSuccess);
    EXPECT_EQ(cudaFree(d), cudaErrorInvalidDevicePointer);
}

TEST(RuntimeApi, AnAllocationLargerThanTheArenaFails) {
    void* d = nullptr;
    EXPECT_EQ(cudaMalloc(&d, std::size_t{1} << 40), cudaErrorMemoryAllocation);
}

TEST(RuntimeApi, TheLastErrorIsKeptUntilRead) {
    cudaGetLastError();
    int x = 0;
    EXPECT_EQ(cudaFree(&x), cudaErrorInvalidDevicePointer);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevicePointer);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevicePointer);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_STREQ(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
    EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
}

TEST(RuntimeApi, StreamsAndEventsAreSequential) {
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
    cudaEvent_t start = nullptr, end = nullptr;
    ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&end), cudaSuccess);
    float ms = -1;
    EXPECT_EQ(cudaEventElapsedTime(&ms, start, end), cudaErrorInvalidResourceHandle);
    ASSERT_EQ(cudaEventRecord(start, s), cudaSuccess);
    ASSERT_EQ(cudaEventRecord(end, s), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(end), cudaSuccess);
    ASSERT_EQ(cudaEventElapsedTime(&ms, start, end), cudaSuccess);
    EXPECT_GE(ms, 0.0f);
    EXPECT_EQ(cudaEventDestroy(start), cudaSuccess);
    EXPECT_EQ(cudaEventDestroy(end), cudaSuccess);
    EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
}

TEST(RuntimeApi, CountsTheCallsThatWouldMakeTheHostWaitOnAGpu) {
    float* d = nullptr;
    float* pinned = nullptr;
    ASSERT_EQ(cudaMalloc(&d, 4 * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMallocHost(&pinned, 4 * sizeof(float)), cudaSuccess);
    float host[4] = {1, 2, 3, 4};
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
    cudaEvent_t e = nullptr;
    ASSERT_EQ(cudaEventCreate(&e), cudaSuccess);
    const auto waits = [] { return memwall::emu::host_waits(); };

    // Queued without waiting: kernels' neighbours in stream order.
    auto before = waits();
    EXPECT_EQ(cudaMemcpyAsync(d, host, sizeof host, cudaMemcpyHostToDevice, s), cudaSuccess);
    EXPECT_EQ(cudaMemcpyAsync(pinned, d, sizeof host, cudaMemcpyDeviceToHost, s), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(d + 2, d, 2 * sizeof(float), cudaMemcpyDeviceToDevice), cudaSuccess);
    EXPECT_EQ(cudaMemsetAsync(d, 0, sizeof host, s), cudaSuccess);
    EXPECT_EQ(cudaEventRecord(e, s), cudaSuccess);
    EXPECT_EQ(cudaStreamWaitEvent(s, e), cudaSuccess);
    EXPECT_EQ(waits(), before);

    // Each of these waits on a GPU.
    EXPECT_EQ(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_EQ(waits(), before + 1);
    EXPECT_EQ(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(host, d, sizeof host, cudaMemcpyDefault), cudaSuccess);
    EXPECT_EQ(cudaMemcpyAsync(host, d, sizeof host, cudaMemcpyDeviceToHost, s), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(e), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(waits(), before + 7);
    EXPECT_EQ(cudaFree(d), cudaSuccess);
    EXPECT_EQ(waits(), before + 8);

    EXPECT_EQ(cudaEventDestroy(e), cudaSuccess);
    EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
    EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

}  // namespace
