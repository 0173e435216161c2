// cuBLAS for GPU_ONLY launchers (conv's im2col_gemm, lora's cublas_unfused), opened at the first
// case (dlopen) rather than linked: libcublasLt maps about 190 MB of writable segments, which every
// memwall process would carry and which alone exceed a case worker's --case-memory limit of 128 MiB
// before main. The library is the major version memwall was built with. nvcc only.
#pragma once

#include <cublas_v2.h>
#include <dlfcn.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace memwall::kit::cuda_gpu {

// The cuBLAS functions memwall calls. Opened once per process; a failure throws (the case fails,
// naming the library) and is retried at the next case.
struct Cublas {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetMathMode) set_math_mode = nullptr;
    decltype(&cublasSgemm_v2) sgemm = nullptr;
    decltype(&cublasSgemmStridedBatched) sgemm_strided_batched = nullptr;
    // The C function: in C++ cublas_api.h adds an overload taking a cudaDataType compute type.
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                              const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                              cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
    decltype(&cublasGetStatusString) status_string = nullptr;
};

inline const Cublas& cublas() {
    static const Cublas api = [] {
        const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
        void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) throw std::runtime_error("cannot load cuBLAS: " + std::string(dlerror()));
        auto bind = [lib, &name](auto& f, const char* symbol) {
            f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, symbol));
            if (!f) throw std::runtime_error(name + " lacks " + symbol);
        };
        Cublas c;
        bind(c.create, "cublasCreate_v2");
        bind(c.destroy, "cublasDestroy_v2");
        bind(c.set_math_mode, "cublasSetMathMode");
        bind(c.sgemm, "cublasSgemm_v2");
        bind(c.sgemm_strided_batched, "cublasSgemmStridedBatched");
        bind(c.gemm_ex, "cublasGemmEx");
        bind(c.status_string, "cublasGetStatusString");
        return c;
    }();
    return api;
}

inline void check_cublas(cublasStatus_t e, const char* what) {
    if (e != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + cublas().status_string(e));
}

// A cuBLAS handle in CUBLAS_DEFAULT_MATH: plain FP32 FMA for SGEMM (TF32 only with
// CUBLAS_TF32_TENSOR_OP_MATH, never set).
class CublasHandle {
  public:
    CublasHandle() {
        check_cublas(cublas().create(&handle_), "cublasCreate");
        if (cublasStatus_t e = cublas().set_math_mode(handle_, CUBLAS_DEFAULT_MATH); e != CUBLAS_STATUS_SUCCESS) {
            cublas().destroy(handle_);
            check_cublas(e, "cublasSetMathMode");
        }
    }
    ~CublasHandle() { cublas().destroy(handle_); }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    cublasHandle_t get() const { return handle_; }

  private:
    cublasHandle_t handle_ = nullptr;
};

}  // namespace memwall::kit::cuda_gpu
