// A typed cudaMalloc'd array for the tests, with copies to and from host vectors.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "cuda_emu/runtime_api.hpp"

namespace memwall::emu_test {

template <class T>
class DeviceBuffer {
  public:
    explicit DeviceBuffer(std::size_t n) : n_(n) { EXPECT_EQ(cudaMalloc(&p_, n * sizeof(T)), cudaSuccess); }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
    ~DeviceBuffer() { cudaFree(p_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* get() const { return p_; }
    std::size_t size() const { return n_; }
    void upload(const std::vector<T>& host) {
        ASSERT_EQ(host.size(), n_);
        ASSERT_EQ(cudaMemcpy(p_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    }
    std::vector<T> download() const {
        std::vector<T> host(n_);
        EXPECT_EQ(cudaMemcpy(host.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
        return host;
    }

  private:
    T* p_ = nullptr;
    std::size_t n_;
};

}  // namespace memwall::emu_test
