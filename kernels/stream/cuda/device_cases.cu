// The launcher of the CUDA stream kernel and its device case; compiled by nvcc for GPUs
// (cuda_gpu) and by the host compiler for cuda-emu (cuda_emu), see memwall_add_family.
#include <stdexcept>

// Standard headers (through device_case.hpp) before cuda-emu's macros.
#include "kernels/stream/cuda/device_case.hpp"

#include "kernels/kit/cuda/device_array.cuh"
#include "kernels/stream/cuda/stream.cuh"

namespace memwall::stream_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

namespace {

class Case final : public kit::DeviceCase {
  public:
    Case(const Shape& s, int threads, const float* x, const float* y)
        : s_(s),
          threads_(threads),
          x_(static_cast<std::size_t>(s.n)),
          y_(y ? static_cast<std::size_t>(s.n) : 0),
          z_(static_cast<std::size_t>(s.n)) {
        x_.upload(x);
        if (y) y_.upload(y);
    }
    void poison() override { z_.poison(); }
    void run() override {
        cuda::LaunchConfig c;
        c.grid = dim3(static_cast<unsigned>(std::min(blocks(s_.n, threads_), static_cast<unsigned>(kMaxBlocks))));
        c.block = dim3(static_cast<unsigned>(threads_));
        cuda::launch(c, stream_kernel, s_, x_.get(), y_.get(), z_.get());
    }
    std::size_t output_size() const override { return z_.size(); }
    void download(float* z) const override { z_.download(z); }

  private:
    Shape s_;
    int threads_;
    DeviceArray<float> x_, y_, z_;
};

}  // namespace

std::unique_ptr<kit::DeviceCase> make_device_case(const Shape& s, int threads, const float* x, const float* y) {
    if (s.n < 1) throw std::invalid_argument("cuda stream: n must be positive");
    if (threads < 32 || threads > kMaxThreads || threads % 32 != 0)
        throw std::invalid_argument("cuda stream: threads must be a multiple of 32 up to 1024");
    if ((s.op == StreamOp::add || s.op == StreamOp::triad) && !y)
        throw std::invalid_argument("cuda stream: add and triad read y");
    return std::make_unique<Case>(s, threads, x, y);
}

}  // namespace memwall::stream_cuda::MEMWALL_CUDA_NS
