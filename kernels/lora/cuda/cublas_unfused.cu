// cublas_unfused on a GPU: unfused's passes (base GEMM, dropout writing X', down-projection,
// up-projection, scaled add) with cuBLAS for the three GEMMs and memwall's dropout and add
// kernels between them, as PyTorch's LoRA runs on cuBLAS: cublasSgemm in fp32, cublasGemmEx on
// bf16 with float accumulation (CUBLAS_COMPUTE_32F, tensor cores) in bf16. GPU-only (cuBLAS
// cannot run under cuda-emu); compiled by nvcc alone (memwall_add_family's GPU_ONLY). Not yet run
// on a GPU.
//
// cuBLAS is column-major: row-major C (m×n) = A (m×k) · B (k×n) is, read column-major,
// C^T = B^T · A^T with the same arrays, so m and n swap and nothing is transposed. Math mode
// CUBLAS_DEFAULT_MATH: plain FP32 FMA for SGEMM (TF32 only with CUBLAS_TF32_TENSOR_OP_MATH, never
// set). cuBLAS is opened at the first case (kit/cuda/cublas.cuh says why).
#include <string>
#include <type_traits>

#include "kernels/lora/cuda/device_case.hpp"

#include "kernels/kit/cuda/cublas.cuh"
#include "kernels/lora/cuda/buffers.cuh"

namespace memwall::lora_cuda::cuda_gpu {

namespace {

using kit::cuda_gpu::check_cublas;
using kit::cuda_gpu::cublas;
using kit::cuda_gpu::CublasHandle;

template <class T>
class CublasUnfused final : public LoraBuffers<T> {
    using B = LoraBuffers<T>;

  public:
    CublasUnfused(const Shape& s, const Inputs& in) : B(s, Method::cublas_unfused, in) {}

    void run() override {
        this->unfused_calls([this](const GemmArgs<T>& g) { gemm(g.m, g.n, g.depth, g.a, g.b, g.c); },
                            emu::EmulationOptions{});
    }

    std::string detail() const override {
        if constexpr (std::is_same_v<T, float>) return "cuBLAS SGEMM, CUBLAS_DEFAULT_MATH (FP32 FMA, no TF32)";
        return "cuBLAS GemmEx, bf16 in and out, CUBLAS_COMPUTE_32F (tensor cores)";
    }

  private:
    // Row-major C (m×n) = A (m×k) · B (k×n).
    void gemm(int m, int n, int k, const T* a, const T* b, T* c) {
        const float one = 1.0f, zero = 0.0f;
        if constexpr (std::is_same_v<T, float>) {
            check_cublas(
                cublas().sgemm(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n),
                "cublasSgemm");
        } else {
            check_cublas(
                cublas().gemm_ex(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_16BF, n, a,
                                 CUDA_R_16BF, k, &zero, c, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
        }
    }

    CublasHandle handle_;
};

}  // namespace

std::unique_ptr<DeviceCase> make_cublas_unfused_case(const Shape& s, const Inputs& in) {
    validate(s, Tuning{});
    if (s.bf16) return std::make_unique<CublasUnfused<__nv_bfloat16>>(s, in);
    return std::make_unique<CublasUnfused<float>>(s, in);
}

}  // namespace memwall::lora_cuda::cuda_gpu
