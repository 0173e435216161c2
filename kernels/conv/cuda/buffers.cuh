// The device buffers every conv case has, for the launchers (device_cases.cu, im2col_gemm.cu,
// cudnn.cu): input and filter uploaded, the output poisoned, downloaded and checked; and their
// launches' configuration.
#pragma once

#include <algorithm>

#include "kernels/conv/cuda/device_case.hpp"
#include "kernels/kit/cuda/device_array.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

// Blocks of a transform's grid-stride loop over `elements`: enough to fill any GPU, few enough
// that each thread does several elements.
inline unsigned transform_blocks(std::size_t elements) {
    return static_cast<unsigned>(
        std::min<std::size_t>((elements + kTransformThreads - 1) / kTransformThreads, 1u << 20));
}

class ConvBuffers : public DeviceCase {
  public:
    ConvBuffers(const Shape& s, const Inputs& in)
        : s_(s),
          in_(static_cast<std::size_t>(s.n) * static_cast<std::size_t>(s.c) * static_cast<std::size_t>(s.h) *
              static_cast<std::size_t>(s.w)),
          filter_(static_cast<std::size_t>(s.k) * static_cast<std::size_t>(s.c) * static_cast<std::size_t>(s.r) *
                  static_cast<std::size_t>(s.s)),
          out_(static_cast<std::size_t>(s.n) * static_cast<std::size_t>(s.k) * static_cast<std::size_t>(s.p) *
               static_cast<std::size_t>(s.q)) {
        in_.upload(in.input);
        filter_.upload(in.filter);
    }
    void poison() override { out_.poison(); }
    std::size_t output_size() const override { return out_.size(); }
    void download(float* out) const override { out_.download(out); }

  protected:
    Shape s_;
    DeviceArray<float> in_, filter_, out_;
};

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
