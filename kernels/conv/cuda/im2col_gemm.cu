// im2col_gemm on a GPU: the im2col kernel writes every image's column matrix, then one
// cublasSgemmStridedBatched multiplies the filter by each. GPU-only (cuBLAS cannot run under
// cuda-emu); compiled by nvcc alone (memwall_add_family's GPU_ONLY).
//
// cuBLAS is column-major: row-major out[n] (K x P*Q) = filter (K x C*R*S) * col[n] (C*R*S x P*Q)
// is, read column-major, out[n]^T = col[n]^T * filter^T with the same arrays, so m = P*Q, n = K,
// k = C*R*S and no transposes. Math mode CUBLAS_DEFAULT_MATH: plain FP32 FMA for Sgemm, TF32
// tensor cores only with CUBLAS_TF32_TENSOR_OP_MATH, which memwall never sets (the check's fp32
// tolerance would catch a reduced-precision result).
// cuBLAS is opened at the first case (kit/cuda/cublas.cuh says why).
#include <string>

#include "kernels/conv/cuda/device_case.hpp"

#include "kernels/conv/cuda/buffers.cuh"
#include "kernels/conv/cuda/im2col.cuh"
#include "kernels/kit/cuda/cublas.cuh"

namespace memwall::conv_cuda::cuda_gpu {

namespace {

using kit::cuda_gpu::check_cublas;
using kit::cuda_gpu::cublas;
using kit::cuda_gpu::CublasHandle;

class Im2colGemm final : public ConvBuffers {
  public:
    Im2colGemm(const Shape& s, const Inputs& in)
        : ConvBuffers(s, in), col_(workspace_floats(s, Algorithm::im2col_gemm)) {}

    void run() override {
        cuda::LaunchConfig c;
        c.grid = dim3(transform_blocks(col_.size()));
        c.block = dim3(kTransformThreads);
        cuda::launch(c, im2col_kernel, s_, in_.get(), col_.get());
        const int pq = s_.p * s_.q, depth = s_.c * s_.r * s_.s;
        const float one = 1.0f, zero = 0.0f;
        check_cublas(
            cublas().sgemm_strided_batched(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, pq, s_.k, depth, &one, col_.get(),
                                           pq, static_cast<long long>(depth) * pq, filter_.get(), depth, 0, &zero,
                                           out_.get(), pq, static_cast<long long>(s_.k) * pq, s_.n),
            "cublasSgemmStridedBatched");
    }

    std::string detail() const override { return "cuBLAS SGEMM, CUBLAS_DEFAULT_MATH (FP32 FMA, no TF32)"; }

  private:
    DeviceArray<float> col_;
    CublasHandle handle_;
};

}  // namespace

std::unique_ptr<DeviceCase> make_im2col_gemm_case(const Shape& s, const Inputs& in) {
    validate(s, Tuning{Algorithm::im2col_gemm});
    return std::make_unique<Im2colGemm>(s, in);
}

}  // namespace memwall::conv_cuda::cuda_gpu
