// The device arrays every spgemm case has, for the launchers (device_cases.cu, cusparse.cu):
// A and B uploaded (B shares A's arrays for A*A), C's row pointers, and C's columns and values,
// grown to the nnz a run finds (kept across runs, as a caller reuses C's buffers), poisoned,
// downloaded as a CsrMatrix.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "kernels/spgemm/cuda/device_case.hpp"

#include "kernels/kit/cuda/device_array.cuh"
#include "kernels/spgemm/cuda/common.cuh"

namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS {

template <class T>
void copy_to_device(DeviceArray<T>& to, const T* from) {
    if (to.size() > 0) check_cuda(cudaMemcpy(to.get(), from, to.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
}

template <class T>
void copy_to_host(T* to, const T* from, std::size_t n) {
    if (n > 0) check_cuda(cudaMemcpy(to, from, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
}

// A device array that grows to what a run needs and keeps its storage; new storage is poisoned.
template <class T>
class Growable {
  public:
    T* get() const { return a_ ? a_->get() : nullptr; }
    std::size_t size() const { return a_ ? a_->size() : 0; }
    void ensure(std::size_t n) {
        if (a_ && a_->size() >= n) return;
        a_ = std::make_unique<DeviceArray<T>>(std::max<std::size_t>(n, 1));
        a_->poison();
    }
    void poison() {
        if (a_) a_->poison();
    }

  private:
    std::unique_ptr<DeviceArray<T>> a_;
};

// A CSR matrix on the device: int32 row pointers and columns, fp64 values.
struct CsrArrays {
    explicit CsrArrays(const CsrMatrix& m)
        : row_ptr(static_cast<std::size_t>(m.rows) + 1), col(m.col.size()), val(m.val.size()) {
        const std::vector<int> rp(m.row_ptr.begin(), m.row_ptr.end());
        copy_to_device(row_ptr, rp.data());
        copy_to_device(col, m.col.data());
        copy_to_device(val, m.val.data());
    }
    DeviceCsr view() const { return {row_ptr.get(), col.get(), val.get()}; }
    DeviceArray<int> row_ptr, col;
    DeviceArray<double> val;
};

class SpgemmBuffers : public SpgemmCase {
  public:
    SpgemmBuffers(const CsrMatrix& a, const CsrMatrix& b)
        : rows_(static_cast<int>(a.rows)),
          cols_(static_cast<int>(b.cols)),
          a_(a),
          b_own_(&a == &b ? nullptr : std::make_unique<CsrArrays>(b)),
          b_(b_own_ ? *b_own_ : a_),
          c_row_ptr_(a.row_ptr.size()) {}

    void poison() override {
        c_row_ptr_.poison();
        c_col_.poison();
        c_val_.poison();
    }

    CsrMatrix download_csr() const override {
        CsrMatrix c;
        c.rows = rows_;
        c.cols = cols_;
        std::vector<int> rp(c_row_ptr_.size());
        copy_to_host(rp.data(), c_row_ptr_.get(), rp.size());
        c.row_ptr.assign(rp.begin(), rp.end());
        const long long nnz = c.row_ptr.back();
        // A poisoned or impossible count leaves C empty: the check reports its row pointers.
        if (nnz < 0 || static_cast<std::size_t>(nnz) > c_col_.size()) return c;
        c.col.resize(static_cast<std::size_t>(nnz));
        c.val.resize(static_cast<std::size_t>(nnz));
        copy_to_host(c.col.data(), c_col_.get(), c.col.size());
        copy_to_host(c.val.data(), c_val_.get(), c.val.size());
        return c;
    }

  protected:
    // C's columns and values for `nnz` entries.
    void ensure_c(int nnz) {
        c_col_.ensure(static_cast<std::size_t>(nnz));
        c_val_.ensure(static_cast<std::size_t>(nnz));
    }
    // An int the device wrote (a count), copied back.
    static int read_int(const int* device) {
        int x = 0;
        copy_to_host(&x, device, 1);
        return x;
    }

    int rows_, cols_;
    CsrArrays a_;
    std::unique_ptr<CsrArrays> b_own_;
    const CsrArrays& b_;
    DeviceArray<int> c_row_ptr_;
    Growable<int> c_col_;
    Growable<double> c_val_;
};

}  // namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS
