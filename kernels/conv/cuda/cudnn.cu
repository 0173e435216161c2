// The cuDNN peer on a GPU: cudnnConvolutionForward (cuDNN 9's legacy convolution API) with the
// algorithm its heuristics rank first for this shape (cudnnGetConvolutionForwardAlgorithm_v7),
// math type CUDNN_FMA_MATH so it is plain FP32 FMA (no TF32, no tensor cores), and the workspace
// that algorithm asks for (cudnnGetConvolutionForwardWorkspaceSize), allocated with the case and
// reported in its detail. Cross-correlation, as memwall's reference. GPU-only; compiled by nvcc
// alone and only when cuDNN was found.
#include <cudnn.h>

#include <cstdio>
#include <string>
#include <vector>

#include "kernels/conv/cuda/device_case.hpp"

#include "kernels/conv/cuda/buffers.cuh"

namespace memwall::conv_cuda::cuda_gpu {

namespace {

void check_cudnn(cudnnStatus_t e, const char* what) {
    if (e != CUDNN_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + cudnnGetErrorString(e));
}

const char* algorithm_name(cudnnConvolutionFwdAlgo_t a) {
    switch (a) {
        case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
        case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
        case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
        case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
        case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
        case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
        case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
        case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
        default: return "unknown";
    }
}

// The cuDNN handle and descriptors of one case, released in reverse order.
struct Descriptors {
    cudnnHandle_t handle = nullptr;
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;

    explicit Descriptors(const Shape& s) {
        try {
            check_cudnn(cudnnCreate(&handle), "cudnnCreate");
            check_cudnn(cudnnCreateTensorDescriptor(&x), "cudnnCreateTensorDescriptor");
            check_cudnn(cudnnCreateTensorDescriptor(&y), "cudnnCreateTensorDescriptor");
            check_cudnn(cudnnCreateFilterDescriptor(&w), "cudnnCreateFilterDescriptor");
            check_cudnn(cudnnCreateConvolutionDescriptor(&conv), "cudnnCreateConvolutionDescriptor");
            check_cudnn(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.n, s.c, s.h, s.w),
                        "cudnnSetTensor4dDescriptor");
            check_cudnn(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, s.k, s.c, s.r, s.s),
                        "cudnnSetFilter4dDescriptor");
            check_cudnn(cudnnSetConvolution2dDescriptor(conv, s.pad, s.pad, s.stride, s.stride, 1, 1,
                                                        CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                        "cudnnSetConvolution2dDescriptor");
            check_cudnn(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
            int n = 0, k = 0, p = 0, q = 0;
            check_cudnn(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &k, &p, &q),
                        "cudnnGetConvolution2dForwardOutputDim");
            if (n != s.n || k != s.k || p != s.p || q != s.q)
                throw std::runtime_error("cudnn: its output shape differs from memwall's");
            check_cudnn(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, p, q),
                        "cudnnSetTensor4dDescriptor");
        } catch (...) {
            release();
            throw;
        }
    }
    ~Descriptors() { release(); }
    Descriptors(const Descriptors&) = delete;
    Descriptors& operator=(const Descriptors&) = delete;

    void release() {
        if (conv) cudnnDestroyConvolutionDescriptor(conv);
        if (w) cudnnDestroyFilterDescriptor(w);
        if (y) cudnnDestroyTensorDescriptor(y);
        if (x) cudnnDestroyTensorDescriptor(x);
        if (handle) cudnnDestroy(handle);
        conv = nullptr;
        w = nullptr;
        x = y = nullptr;
        handle = nullptr;
    }
};

// The heuristics' first algorithm that supports this shape without tensor cores. The math type
// it runs with is the descriptor's (FMA), whichever an entry reports.
cudnnConvolutionFwdAlgoPerf_t choose(const Descriptors& d) {
    int max = 0, found = 0;
    check_cudnn(cudnnGetConvolutionForwardAlgorithmMaxCount(d.handle, &max),
                "cudnnGetConvolutionForwardAlgorithmMaxCount");
    std::vector<cudnnConvolutionFwdAlgoPerf_t> ranked(static_cast<std::size_t>(max));
    check_cudnn(cudnnGetConvolutionForwardAlgorithm_v7(d.handle, d.x, d.w, d.conv, d.y, max, &found, ranked.data()),
                "cudnnGetConvolutionForwardAlgorithm_v7");
    for (int i = 0; i < found; ++i) {
        const cudnnConvolutionFwdAlgoPerf_t& a = ranked[static_cast<std::size_t>(i)];
        if (a.status == CUDNN_STATUS_SUCCESS && (a.mathType == CUDNN_FMA_MATH || a.mathType == CUDNN_DEFAULT_MATH))
            return a;
    }
    throw std::runtime_error("cudnn: no forward algorithm supports this shape in FMA math");
}

class Cudnn final : public ConvBuffers {
  public:
    Cudnn(const Shape& s, const Inputs& in)
        : ConvBuffers(s, in),
          d_(s),
          algo_(choose(d_).algo),
          workspace_bytes_(workspace_bytes(d_, algo_)),
          workspace_((workspace_bytes_ + 3) / 4) {}

    void run() override {
        const float one = 1.0f, zero = 0.0f;
        check_cudnn(cudnnConvolutionForward(d_.handle, &one, d_.x, in_.get(), d_.w, filter_.get(), d_.conv, algo_,
                                            workspace_.get(), workspace_bytes_, &zero, d_.y, out_.get()),
                    "cudnnConvolutionForward");
    }

    std::string detail() const override {
        char buf[160];
        std::snprintf(buf, sizeof buf, "cuDNN algorithm %s, FMA math (FP32, no TF32), workspace %.1f MiB (%zu B)",
                      algorithm_name(algo_), static_cast<double>(workspace_bytes_) / (1 << 20), workspace_bytes_);
        return buf;
    }

  private:
    static std::size_t workspace_bytes(const Descriptors& d, cudnnConvolutionFwdAlgo_t a) {
        std::size_t bytes = 0;
        check_cudnn(cudnnGetConvolutionForwardWorkspaceSize(d.handle, d.x, d.w, d.conv, d.y, a, &bytes),
                    "cudnnGetConvolutionForwardWorkspaceSize");
        return bytes;
    }

    Descriptors d_;
    cudnnConvolutionFwdAlgo_t algo_;
    std::size_t workspace_bytes_;
    DeviceArray<float> workspace_;
};

}  // namespace

std::unique_ptr<DeviceCase> make_cudnn_case(const Shape& s, const Inputs& in) {
    validate(s, Tuning{Algorithm::cudnn});
    return std::make_unique<Cudnn>(s, in);
}

}  // namespace memwall::conv_cuda::cuda_gpu
