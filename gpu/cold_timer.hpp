// The cuda backend's timing of one execution, as nvbench's cold measurements do it. Built by
// nvcc (runtime.cu) when CUDA is enabled; C++17 and free of CUDA headers.
#pragma once

#include <functional>
#include <memory>

namespace memwall::gpu {

// L2 flushed first (a cudaMemsetAsync over an L2-sized buffer), the work queued behind a kernel
// that spins until the host has enqueued all of it (so launch latency is not timed), CUDA events
// around the work.
class ColdTimer {
  public:
    ColdTimer();
    ~ColdTimer();
    ColdTimer(const ColdTimer&) = delete;
    ColdTimer& operator=(const ColdTimer&) = delete;

    // Seconds of GPU time of what `enqueue` puts on the default stream; throws
    // std::runtime_error on CUDA errors or when the spinning kernel timed out before the host
    // released it.
    double seconds(const std::function<void()>& enqueue);
    // The same for work that makes the host wait for the device (kit::CudaKernel::waits_on_host):
    // no spinning kernel, which such work would deadlock, so the gaps between its launches are
    // timed too (nvbench's `sync` tag).
    double seconds_waiting(const std::function<void()>& enqueue);
    // Enqueues the L2 flush alone: a memset over an L2-sized buffer.
    void flush_l2();
    // The flush, then a read of a second L2-sized buffer, so that the memset's dirty lines are
    // written back now rather than inside the next run: before a profiled run, whose DRAM writes
    // would otherwise include up to an L2 of them.
    void flush_l2_clean();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace memwall::gpu
