// im2col_gemm on a GPU: the im2col kernel writes every image's column matrix, then one
// cublasSgemmStridedBatched multiplies the filter by each. GPU-only (cuBLAS cannot run under
// cuda-emu); compiled by nvcc alone (memwall_add_family's GPU_ONLY). Not yet run on a GPU.
//
// cuBLAS is column-major: row-major out[n] (K x P*Q) = filter (K x C*R*S) * col[n] (C*R*S x P*Q)
// is, read column-major, out[n]^T = col[n]^T * filter^T with the same arrays, so m = P*Q, n = K,
// k = C*R*S and no transposes. Math mode CUBLAS_DEFAULT_MATH: plain FP32 FMA for Sgemm, TF32
// tensor cores only with CUBLAS_TF32_TENSOR_OP_MATH, which memwall never sets (the check's fp32
// tolerance would catch a reduced-precision result).
//
// cuBLAS is opened at the first case (dlopen), not linked: libcublasLt maps about 190 MB of
// writable segments, which every memwall process would carry and which alone exceed a case
// worker's --case-memory limit of 128 MiB before main.
#include <cublas_v2.h>
#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "kernels/conv/cuda/device_case.hpp"

#include "kernels/conv/cuda/buffers.cuh"
#include "kernels/conv/cuda/im2col.cuh"

namespace memwall::conv_cuda::cuda_gpu {

namespace {

// The cuBLAS functions the case calls, from the library of the major version memwall was built
// with. Opened once per process; a failure is retried at the next case.
struct Cublas {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetMathMode) set_math_mode = nullptr;
    decltype(&cublasSgemmStridedBatched) sgemm_strided_batched = nullptr;
    decltype(&cublasGetStatusString) status_string = nullptr;
};

const Cublas& cublas() {
    static const Cublas api = [] {
        const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
        void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) throw std::runtime_error("im2col_gemm: cannot load cuBLAS: " + std::string(dlerror()));
        auto bind = [lib, &name](auto& f, const char* symbol) {
            f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, symbol));
            if (!f) throw std::runtime_error("im2col_gemm: " + name + " lacks " + symbol);
        };
        Cublas c;
        bind(c.create, "cublasCreate_v2");
        bind(c.destroy, "cublasDestroy_v2");
        bind(c.set_math_mode, "cublasSetMathMode");
        bind(c.sgemm_strided_batched, "cublasSgemmStridedBatched");
        bind(c.status_string, "cublasGetStatusString");
        return c;
    }();
    return api;
}

void check_cublas(cublasStatus_t e, const char* what) {
    if (e != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + cublas().status_string(e));
}

class Im2colGemm final : public ConvBuffers {
public:
    Im2colGemm(const Shape& s, const Inputs& in)
        : ConvBuffers(s, in), col_(workspace_floats(s, Algorithm::im2col_gemm)) {
        check_cublas(cublas().create(&handle_), "cublasCreate");
        if (cublasStatus_t e = cublas().set_math_mode(handle_, CUBLAS_DEFAULT_MATH); e != CUBLAS_STATUS_SUCCESS) {
            cublas().destroy(handle_);
            check_cublas(e, "cublasSetMathMode");
        }
    }
    ~Im2colGemm() override { cublas().destroy(handle_); }
    Im2colGemm(const Im2colGemm&) = delete;
    Im2colGemm& operator=(const Im2colGemm&) = delete;

    void forward() override {
        cuda::LaunchConfig c;
        c.grid = dim3(transform_blocks(col_.size()));
        c.block = dim3(transform_threads);
        cuda::launch(c, im2col_kernel, s_, in_.get(), col_.get());
        const int pq = s_.p * s_.q, depth = s_.c * s_.r * s_.s;
        const float one = 1.0f, zero = 0.0f;
        check_cublas(cublas().sgemm_strided_batched(handle_, CUBLAS_OP_N, CUBLAS_OP_N, pq, s_.k, depth, &one,
                                                    col_.get(), pq, static_cast<long long>(depth) * pq, filter_.get(),
                                                    depth, 0, &zero, out_.get(), pq, static_cast<long long>(s_.k) * pq,
                                                    s_.n),
                     "cublasSgemmStridedBatched");
    }

    std::string detail() const override { return "cuBLAS SGEMM, CUBLAS_DEFAULT_MATH (FP32 FMA, no TF32)"; }

private:
    DeviceArray<float> col_;
    cublasHandle_t handle_ = nullptr;
};

}  // namespace

std::unique_ptr<DeviceCase> make_im2col_gemm_case(const Shape& s, const Inputs& in) {
    validate(s, Tuning{Algorithm::im2col_gemm});
    return std::make_unique<Im2colGemm>(s, in);
}

}  // namespace memwall::conv_cuda::cuda_gpu
