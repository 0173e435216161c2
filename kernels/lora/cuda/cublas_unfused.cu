// cublas_unfused on a GPU: unfused's passes (base GEMM, dropout writing X', down-projection,
// up-projection, scaled add) with cublasSgemm for the three GEMMs and memwall's dropout and add
// kernels between them, as PyTorch's LoRA runs on cuBLAS. GPU-only (cuBLAS cannot run under
// cuda-emu); compiled by nvcc alone (memwall_add_family's GPU_ONLY). Not yet run on a GPU.
//
// cuBLAS is column-major: row-major C (m×n) = A (m×k) · B (k×n) is, read column-major,
// C^T = B^T · A^T with the same arrays, so m and n swap and nothing is transposed. Math mode
// CUBLAS_DEFAULT_MATH: plain FP32 FMA (TF32 only with CUBLAS_TF32_TENSOR_OP_MATH, never set).
// cuBLAS is opened at the first case (kit/cuda/cublas.cuh says why).
#include <string>

#include "kernels/lora/cuda/device_case.hpp"

#include "kernels/kit/cuda/cublas.cuh"
#include "kernels/lora/cuda/buffers.cuh"

namespace memwall::lora_cuda::cuda_gpu {

namespace {

using kit::cuda_gpu::check_cublas;
using kit::cuda_gpu::cublas;
using kit::cuda_gpu::CublasHandle;

class CublasUnfused final : public LoraBuffers {
public:
    CublasUnfused(const Shape& s, const Inputs& in) : LoraBuffers(s, Method::cublas_unfused, in) {}

    void forward() override {
        gemm(s_.m, s_.n, s_.k, x_.get(), w_.get(), y_.get());
        launch_dropout(s_, x_.get(), mask_.get(), xd_work(), emu::EmulationOptions{});
        for (int a = 0; a < s_.adapters; ++a) {
            const long long t0 = s_.segment_begin(a);
            gemm(s_.segment_begin(a + 1) - s_.segment_begin(a), s_.r, s_.k, xd_work() + t0 * s_.k, a_of(a),
                 s_work() + t0 * s_.r);
        }
        for (int a = 0; a < s_.adapters; ++a) {
            const long long t0 = s_.segment_begin(a);
            gemm(s_.segment_begin(a + 1) - s_.segment_begin(a), s_.n, s_.r, s_work() + t0 * s_.r, b_of(a),
                 t_work() + t0 * s_.n);
        }
        launch_scaled_add(static_cast<long long>(s_.m) * s_.n, s_.alpha, t_work(), y_.get(), emu::EmulationOptions{});
    }

    std::string detail() const override { return "cuBLAS SGEMM, CUBLAS_DEFAULT_MATH (FP32 FMA, no TF32)"; }

private:
    // Row-major C (m×n) = A (m×k) · B (k×n).
    void gemm(int m, int n, int k, const float* a, const float* b, float* c) {
        const float one = 1.0f, zero = 0.0f;
        check_cublas(cublas().sgemm(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n),
                     "cublasSgemm");
    }

    CublasHandle handle_;
};

}  // namespace

std::unique_ptr<DeviceCase> make_cublas_unfused_case(const Shape& s, const Inputs& in) {
    validate(s, Tuning{});
    return std::make_unique<CublasUnfused>(s, in);
}

}  // namespace memwall::lora_cuda::cuda_gpu
