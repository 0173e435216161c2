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
    // Enqueues the L2 flush alone (before a profiled run).
    void flush_l2();

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace memwall::gpu
