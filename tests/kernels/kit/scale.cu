// The toy kernel's launcher: a DeviceCase with the kit's device arrays.
// Standard headers (through scale.hpp) before cuda-emu's macros (kit/cuda/common.cuh says why).
#include "scale.hpp"

#include "kernels/kit/cuda/device_array.cuh"
#include "scale.cuh"

namespace memwall::kit_test::MEMWALL_CUDA_NS {

namespace {

template <class T>
class ScaleCase final : public kit::DeviceCase {
  public:
    explicit ScaleCase(const std::vector<float>& in) : in_(in.size()), out_(in.size()) { in_.upload(in.data()); }
    void poison() override { out_.poison(); }
    void run() override {
        cuda::LaunchConfig c;
        c.grid = dim3(kit::MEMWALL_CUDA_NS::blocks(static_cast<long long>(in_.size()), 64));
        c.block = dim3(64);
        cuda::launch(c, scale_kernel<T>, static_cast<int>(in_.size()), in_.get(), out_.get());
    }
    std::size_t output_size() const override { return out_.size(); }
    void download(float* out) const override { out_.download(out); }

  private:
    kit::MEMWALL_CUDA_NS::DeviceArray<T> in_, out_;
};

}  // namespace

std::unique_ptr<kit::DeviceCase> make_scale_case(const std::vector<float>& in, bool bf16) {
    if (in.empty()) throw std::invalid_argument("scale: no elements");
    if (bf16) return std::make_unique<ScaleCase<__nv_bfloat16>>(in);
    return std::make_unique<ScaleCase<float>>(in);
}

}  // namespace memwall::kit_test::MEMWALL_CUDA_NS
