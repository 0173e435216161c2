// The device buffers every lora case has, for the launchers (device_cases.cu, lora_tc.cu,
// cublas_unfused.cu): the inputs uploaded, Y poisoned, downloaded and checked, the workspace of the
// method; and the unfused and fused methods' launch sequences over them.
#pragma once

#include "kernels/kit/cuda/device_array.cuh"
#include "kernels/lora/cuda/down_project.cuh"
#include "kernels/lora/cuda/gemm.cuh"
#include "kernels/lora/cuda/device_case.hpp"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

using namespace kit::MEMWALL_CUDA_NS;

// Bit-exact copies of integer inputs (the mask, the adapters of the tokens).
template <class T>
void upload_bits(DeviceArray<T>& d, const T* host) {
    check_cuda(cudaMemcpy(d.get(), host, d.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
}

// unfused's element-wise passes (passes.cuh), defined once in device_cases.cu (for float and
// __nv_bfloat16) and launched by every unfused case: X' = X ⊙ mask / (1 - p) (M×K), and
// y += alpha * t over n elements.
template <class T>
void launch_dropout(const Shape& s, const T* x, const unsigned* mask, T* xd, const emu::EmulationOptions& o);
template <class T>
void launch_scaled_add(long long n, float alpha, const T* t, T* y, const emu::EmulationOptions& o);

// T: float or __nv_bfloat16, the inputs', Y's and the workspace's element type.
template <class T>
class LoraBuffers : public DeviceCase {
  public:
    LoraBuffers(const Shape& s, Method method, const Inputs& in)
        : s_(s),
          x_(z(s.m) * z(s.k)),
          w_(z(s.k) * z(s.n)),
          a_(z(s.adapters) * z(s.k) * z(s.r)),
          b_(z(s.adapters) * z(s.r) * z(s.n)),
          mask_(z(s.m) * z(s.mask_words())),
          adapter_of_(z(s.m)),
          y_(z(s.m) * z(s.n)),
          work_(workspace_elements(s, method)) {
        x_.upload(in.x);
        w_.upload(in.w);
        a_.upload(in.a);
        b_.upload(in.b);
        upload_bits(mask_, reinterpret_cast<const unsigned*>(in.mask));
        upload_bits(adapter_of_, reinterpret_cast<const int*>(in.adapter_of));
    }
    void poison() override { y_.poison(); }
    std::size_t output_size() const override { return y_.size(); }
    void download(float* out) const override { y_.download(out); }

  protected:
    static std::size_t z(int x) { return static_cast<std::size_t>(x); }
    // Workspace: S (M×r) first, then unfused's X' (M×K) and T (M×N).
    T* s_work() const { return work_.get(); }
    T* xd_work() const { return work_.get() + z(s_.m) * z(s_.r); }
    T* t_work() const { return xd_work() + z(s_.m) * z(s_.k); }
    const T* a_of(int adapter) const { return a_.get() + z(adapter) * z(s_.k) * z(s_.r); }
    const T* b_of(int adapter) const { return b_.get() + z(adapter) * z(s_.r) * z(s_.n); }

    // fused's and multi_adapter's launches, whichever kernels a case runs them with: per call
    // the down-projection S = α/(1-p)(mask⊙X)·A, then the GEMM adding S·B in its epilogue.
    // fused makes one call per adapter's tokens; multi_adapter one per `group` adapters, each
    // token (down-projection) and each tile row (epilogue) looking up its adapter.
    template <class Down, class Gemm>
    void fused_calls(Method m, int group, Down down, Gemm gemm) {
        const bool batched = m == Method::multi_adapter;
        const int step = batched ? group : 1;
        const float scale = s_.alpha * s_.keep_scale;
        for (int a = 0; a < s_.adapters; a += step) {
            const long long t0 = s_.segment_begin(a);
            const int rows = s_.segment_begin(a + step < s_.adapters ? a + step : s_.adapters) - s_.segment_begin(a);
            const int* ids = batched ? adapter_of_.get() + t0 : nullptr;
            down(DownArgs<T>{rows, s_.k, s_.r, scale, x_.get() + t0 * s_.k, mask_.get() + t0 * s_.mask_words(),
                             batched ? a_.get() : a_of(a), ids, s_work() + t0 * s_.r});
            gemm(GemmArgs<T>{rows, s_.n, s_.k, x_.get() + t0 * s_.k, w_.get(), y_.get() + t0 * s_.n,
                             s_work() + t0 * s_.r, batched ? b_.get() : b_of(a), ids, s_.r});
        }
    }

    // unfused's launches, PyTorch's passes with the case's GEMM: Y = X·W; X' = dropout(X); per
    // adapter S = X'·A_a and T = S·B_a; Y += α·T.
    template <class Gemm>
    void unfused_calls(Gemm gemm, const emu::EmulationOptions& options) {
        gemm(plain_gemm<T>(s_.m, s_.n, s_.k, x_.get(), w_.get(), y_.get()));
        launch_dropout<T>(s_, x_.get(), mask_.get(), xd_work(), options);
        for (int a = 0; a < s_.adapters; ++a) {
            const long long t0 = s_.segment_begin(a);
            const int rows = s_.segment_begin(a + 1) - s_.segment_begin(a);
            gemm(plain_gemm<T>(rows, s_.r, s_.k, xd_work() + t0 * s_.k, a_of(a), s_work() + t0 * s_.r));
        }
        for (int a = 0; a < s_.adapters; ++a) {
            const long long t0 = s_.segment_begin(a);
            const int rows = s_.segment_begin(a + 1) - s_.segment_begin(a);
            gemm(plain_gemm<T>(rows, s_.n, s_.r, s_work() + t0 * s_.r, b_of(a), t_work() + t0 * s_.n));
        }
        launch_scaled_add<T>(static_cast<long long>(s_.m) * s_.n, s_.alpha, t_work(), y_.get(), options);
    }

    Shape s_;
    DeviceArray<T> x_, w_, a_, b_;
    DeviceArray<unsigned> mask_;
    DeviceArray<int> adapter_of_;
    DeviceArray<T> y_, work_;
};

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
