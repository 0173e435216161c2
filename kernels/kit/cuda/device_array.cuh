// Device memory for a family's launcher (.cu): cudaMalloc'd arrays that upload from and
// download to host arrays of their element type, or host floats converted to and from it. The
// same code runs on a GPU (nvcc) and on cuda-emu's arena (whose address range is what traffic
// counting watches).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
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

    // From n host elements, as they are.
    void upload(const T* host) { check_cuda(cudaMemcpy(p_, host, bytes(), cudaMemcpyHostToDevice), "cudaMemcpy"); }
    // From n host floats, rounded to T (bfloat16).
    template <class U = T, std::enable_if_t<!std::is_same_v<U, float>, int> = 0>
    void upload(const float* host) {
        std::vector<T> x(n_);
        std::transform(host, host + n_, x.begin(), [](float e) { return from_float<T>(e); });
        upload(x.data());
    }
    // To n host elements, as they are.
    void download(T* host) const { check_cuda(cudaMemcpy(host, p_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy"); }
    // To n host floats.
    template <class U = T, std::enable_if_t<!std::is_same_v<U, float>, int> = 0>
    void download(float* host) const {
        std::vector<T> x(n_);
        download(x.data());
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
