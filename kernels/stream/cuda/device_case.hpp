// The host side of the CUDA stream kernel (stream.cuh): the problem as it takes it and its
// device cases, built from device_cases.cu for cuda-emu (host compiler) and for GPUs (nvcc).
// C++17 and free of CUDA headers.
#pragma once

#include <memory>

#include "kernels/kit/device_case.hpp"
#include "kernels/stream/stream_op.hpp"

namespace memwall::stream_cuda {

struct Shape {
    StreamOp op = StreamOp::triad;
    long long n = 1;
    float scalar = 3.0f;
};

inline constexpr int kMaxThreads = 1024;
inline constexpr long long kMaxBlocks = 1 << 20;  // more elements: each thread strides the grid

// Host inputs (y may be null for copy and scale). Throws std::invalid_argument when n < 1 or
// `threads` is not a multiple of 32 up to 1024.
namespace cuda_emu {
std::unique_ptr<kit::DeviceCase> make_device_case(const Shape& s, int threads, const float* x, const float* y);
}  // namespace cuda_emu
namespace cuda_gpu {
std::unique_ptr<kit::DeviceCase> make_device_case(const Shape& s, int threads, const float* x, const float* y);
}  // namespace cuda_gpu

}  // namespace memwall::stream_cuda
