// The CUDA gather kernel and its launcher: one thread per lookup.
#include "gather.hpp"

#include "kernels/kit/cuda/device_array.cuh"

namespace gather_cuda::MEMWALL_CUDA_NS {

using namespace memwall::kit::MEMWALL_CUDA_NS;

__global__ void gather_kernel(long long n, const float* x, const int* index, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[index[i]];
}

namespace {

class Case final : public memwall::kit::DeviceCase {
public:
    explicit Case(const GatherWorkload& w)
        : n_(w.problem().n), x_(w.table().size()), index_(w.index().size()), y_(w.index().size()) {
        x_.upload(w.table().data());
        check_cuda(cudaMemcpy(index_.get(), w.index().data(), index_.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    void poison() override { y_.poison(); }
    void forward() override {
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

std::unique_ptr<memwall::kit::DeviceCase> make_case(const GatherWorkload& w) { return std::make_unique<Case>(w); }

}  // namespace gather_cuda::MEMWALL_CUDA_NS
