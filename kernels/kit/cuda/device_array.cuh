// Device memory for a family's launcher (.cu): cudaMalloc'd arrays that upload from and
// download to host floats, converting to and from the element type. The same code runs on a
// GPU (nvcc) and on cuda-emu's arena (whose address range is what traffic counting watches).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/kit/cuda/common.cuh"

namespace memwall::kit::MEMWALL_CUDA_NS {

inline void check_cuda(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(e));
}

template <class T>
class DeviceArray {
  public:
    explicit DeviceArray(std::size_t n) : n_(n) {
        if (n_ > 0) check_cuda(cudaMalloc(&p_, bytes()), "cudaMalloc");
    }
    ~DeviceArray() { cudaFree(p_); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    T* get() const { return p_; }
    std::size_t size() const { return n_; }
    std::size_t bytes() const { return n_ * sizeof(T); }

    // From n host floats, rounded to T.
    void upload(const float* host) {
        std::vector<T> x(n_);
        std::transform(host, host + n_, x.begin(), [](float e) { return from_float<T>(e); });
        check_cuda(cudaMemcpy(p_, x.data(), bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    // To n host floats.
    void download(float* host) const {
        std::vector<T> x(n_);
        check_cuda(cudaMemcpy(x.data(), p_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
        std::transform(x.begin(), x.end(), host, [](T e) { return to_float(e); });
    }
    // Every byte 0xFF: NaN in float and bfloat16, so elements a kernel does not write are caught.
    void poison() { check_cuda(cudaMemset(p_, 0xFF, bytes()), "cudaMemset"); }

  private:
    T* p_ = nullptr;
    std::size_t n_;
};

// Blocks of `per_block` covering n.
inline unsigned blocks(long long n, long long per_block) {
    return static_cast<unsigned>((n + per_block - 1) / per_block);
}

}  // namespace memwall::kit::MEMWALL_CUDA_NS
