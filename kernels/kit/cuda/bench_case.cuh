// A benchmark's CUDA case (kit/bench.hpp), built with each compile of its source: by nvcc for
// GPUs and by the host compiler for cuda-emu, so its arrays live in that build's device memory.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "kernels/kit/bench.hpp"
#include "kernels/kit/cuda/device_array.cuh"

namespace memwall::kit {

template <>
struct dtype_of<__nv_bfloat16> : std::integral_constant<Dtype, Dtype::bf16> {};

namespace MEMWALL_CUDA_NS {

class BenchCase final : public BenchDeviceCase {
  public:
    BenchCase(const BenchBody& body, const BenchArgs& host) : body_(body), args_(host) {
        for (BenchArray& a : args_.arrays) {
            device_.push_back(std::make_unique<DeviceArray<unsigned char>>(a.count * dtype_size(a.dtype)));
            if (!a.output) device_.back()->upload(static_cast<const unsigned char*>(a.data));
            a.data = device_.back()->get();
        }
    }
    void poison() override {
        for (std::size_t i = 0; i < device_.size(); ++i)
            if (args_.arrays[i].output) device_[i]->poison();
    }
    void run() override { body_(args_); }
    void download_output(std::size_t index, void* host) const override {
        check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        device_.at(index)->download(static_cast<unsigned char*>(host));
    }

  private:
    BenchBody body_;
    BenchArgs args_;
    std::vector<std::unique_ptr<DeviceArray<unsigned char>>> device_;
};

inline std::unique_ptr<BenchDeviceCase> make_bench_case(const BenchBody& body, const BenchArgs& host) {
    return std::make_unique<BenchCase>(body, host);
}

}  // namespace MEMWALL_CUDA_NS
}  // namespace memwall::kit
