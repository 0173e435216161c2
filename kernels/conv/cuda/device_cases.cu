// Launchers of the emulatable CUDA conv kernels (direct, im2win, implicit_gemm; the tensor-core
// ones are conv_tc.cu's) and the device case behind them; compiled by nvcc for GPUs (cuda_gpu) and by the host compiler
// for cuda-emu (cuda_emu), see memwall_add_family.
#include <algorithm>
#include <stdexcept>

// Standard headers (through device_case.hpp) before cuda-emu's macros.
#include "kernels/conv/cuda/device_case.hpp"

#include "kernels/conv/cuda/buffers.cuh"
#include "kernels/conv/cuda/conv_tc_case.hpp"
#include "kernels/conv/cuda/direct.cuh"
#include "kernels/conv/cuda/im2win_conv.cuh"
#include "kernels/conv/cuda/im2win_transform.cuh"
#include "kernels/conv/cuda/implicit_gemm.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

namespace {

using Kernel = void (*)(Shape, Tuning, const float*, const float*, float*);
using DirectKernel = void (*)(Shape, const float*, const float*, float*);

// The kernels' register tiles are template arguments: one instantiation per allowed size.
DirectKernel direct_for(int kpt) {
    switch (kpt) {
        case 1: return direct_kernel<1>;
        case 2: return direct_kernel<2>;
        case 4: return direct_kernel<4>;
        default: return direct_kernel<8>;
    }
}

Kernel im2win_for(int kpt) {
    switch (kpt) {
        case 1: return im2win_conv_kernel<1>;
        case 2: return im2win_conv_kernel<2>;
        case 4: return im2win_conv_kernel<4>;
        default: return im2win_conv_kernel<8>;
    }
}

template <int TM>
Kernel implicit_gemm_for_tn(int tn) {
    switch (tn) {
        case 1: return implicit_gemm_kernel<TM, 1>;
        case 2: return implicit_gemm_kernel<TM, 2>;
        case 4: return implicit_gemm_kernel<TM, 4>;
        default: return implicit_gemm_kernel<TM, 8>;
    }
}

Kernel implicit_gemm_for(int tm, int tn) {
    switch (tm) {
        case 1: return implicit_gemm_for_tn<1>(tn);
        case 2: return implicit_gemm_for_tn<2>(tn);
        case 4: return implicit_gemm_for_tn<4>(tn);
        default: return implicit_gemm_for_tn<8>(tn);
    }
}

unsigned grid_yz(long long n) { return static_cast<unsigned>(std::min<long long>(n, kMaxGridYz)); }

class Case final : public ConvBuffers {
  public:
    Case(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& options)
        : ConvBuffers(s, in), t_(t), options_(options), work_(workspace_floats(s, t.algorithm)) {}

    void run() override {
        switch (t_.algorithm) {
            case Algorithm::direct: return direct();
            case Algorithm::im2win: return im2win();
            case Algorithm::implicit_gemm: return implicit_gemm();
            case Algorithm::im2col_gemm:
            case Algorithm::cudnn:
            case Algorithm::implicit_gemm_tc:
            case Algorithm::im2win_tc: break;
        }
    }

  private:
    cuda::LaunchConfig config(dim3 grid, int threads, std::size_t shared = 0) const {
        return launch_config(grid, threads, shared, options_);
    }

    void direct() {
        const long long groups = (s_.k + t_.k_per_thread - 1) / t_.k_per_thread;
        cuda::launch(
            config(dim3(blocks(static_cast<long long>(s_.p) * s_.q, t_.threads), grid_yz(groups), grid_yz(s_.n)),
                   t_.threads),
            direct_for(t_.k_per_thread), s_, in_.get(), filter_.get(), out_.get());
    }

    void im2win() {
        cuda::launch(config(dim3(transform_blocks(work_.size())), kTransformThreads), im2win_transform_kernel, s_,
                     in_.get(), work_.get());
        const long long tiles = static_cast<long long>(blocks(s_.p, t_.tile_p)) * blocks(s_.q, t_.tile_q);
        cuda::launch(config(dim3(static_cast<unsigned>(tiles), blocks(s_.k, t_.tile_k), grid_yz(s_.n)),
                            im2win_threads(t_), im2win_shared_bytes(s_, t_)),
                     im2win_for(t_.k_per_thread), s_, t_, work_.get(), filter_.get(), out_.get());
    }

    void implicit_gemm() {
        const long long pixels = static_cast<long long>(s_.n) * s_.p * s_.q;
        cuda::launch(config(dim3(blocks(pixels, t_.bn), blocks(s_.k, t_.bm)), implicit_gemm_threads(t_),
                            implicit_gemm_shared_bytes(t_.bm, t_.bn, t_.bk)),
                     implicit_gemm_for(t_.tm, t_.tn), s_, t_, in_.get(), filter_.get(), out_.get());
    }

    Tuning t_;
    emu::EmulationOptions options_;
    DeviceArray<float> work_;
};

std::unique_ptr<DeviceCase> make_case(const Shape& s, const Tuning& t, const Inputs& in,
                                      const emu::EmulationOptions& options) {
    if (t.algorithm == Algorithm::im2col_gemm || t.algorithm == Algorithm::cudnn)
        throw std::invalid_argument("cuda conv: im2col_gemm and cudnn call GPU libraries (their own factories)");
    validate(s, t);
    if (tensor_core(t.algorithm)) return make_tc_case(s, t, in, options);
    return std::make_unique<Case>(s, t, in, options);
}

}  // namespace

#if defined(__CUDACC__)
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in) {
    return make_case(s, t, in, emu::EmulationOptions{});
}
#else
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in,
                                             const emu::EmulationOptions& options) {
    return make_case(s, t, in, options);
}
#endif

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
