// The CUDA gather kernel and its launcher: one thread per lookup.
#include "gather_cuda.hpp"

#include <memwall/launcher.cuh>

namespace gather_cuda::MEMWALL_CUDA_NS {

using namespace memwall::kit::MEMWALL_CUDA_NS;

__global__ void gather_kernel(long long n, const float* x, const int* index, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[index[i]];
}

namespace {

class Case final : public memwall::kit::DeviceCase {
  public:
    Case(const Shape& s, const float* table, const std::int32_t* index)
        : n_(s.n),
          x_(static_cast<std::size_t>(s.m)),
          index_(static_cast<std::size_t>(s.n)),
          y_(static_cast<std::size_t>(s.n)) {
        x_.upload(table);
        index_.upload(index);
    }
    void poison() override { y_.poison(); }
    void run() override {
        memwall::cuda::LaunchConfig c;
        c.grid = dim3(blocks(n_, 256));
        c.block = dim3(256);
        memwall::cuda::launch(c, gather_kernel, n_, x_.get(), index_.get(), y_.get());
    }
    std::size_t output_size() const override { return y_.size(); }
    void download(float* y) const override { y_.download(y); }

  private:
    long long n_;
    DeviceArray<float> x_;
    DeviceArray<int> index_;
    DeviceArray<float> y_;
};

}  // namespace

std::unique_ptr<memwall::kit::DeviceCase> make_device_case(const Shape& s, const float* table,
                                                           const std::int32_t* index) {
    return std::make_unique<Case>(s, table, index);
}

}  // namespace gather_cuda::MEMWALL_CUDA_NS
