// Launchers of the emulatable CUDA lora methods (base, unfused, fused, multi_adapter) and the
// device case behind them; compiled by nvcc for GPUs (cuda_gpu) and by the host compiler for
// cuda-emu (cuda_emu), see memwall_add_family.
#include <algorithm>
#include <stdexcept>

// Standard headers (through device_case.hpp) before cuda-emu's macros.
#include "kernels/lora/cuda/device_case.hpp"

#include "kernels/lora/cuda/buffers.cuh"
#include "kernels/lora/cuda/down_project.cuh"
#include "kernels/lora/cuda/gemm.cuh"
#include "kernels/lora/cuda/passes.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

namespace {

template <class T>
using Gemm = void (*)(GemmArgs<T>, Tuning);
// The register tiles are template arguments: one instantiation per allowed size.
template <class T, int TM>
Gemm<T> gemm_for_tn(int tn) {
    switch (tn) {
        case 1: return gemm_kernel<T, TM, 1>;
        case 2: return gemm_kernel<T, TM, 2>;
        case 4: return gemm_kernel<T, TM, 4>;
        default: return gemm_kernel<T, TM, 8>;
    }
}

template <class T>
Gemm<T> gemm_for(int tm, int tn) {
    switch (tm) {
        case 1: return gemm_for_tn<T, 1>(tn);
        case 2: return gemm_for_tn<T, 2>(tn);
        case 4: return gemm_for_tn<T, 4>(tn);
        default: return gemm_for_tn<T, 8>(tn);
    }
}

template <class T>
class Case final : public LoraBuffers<T> {
    using B = LoraBuffers<T>;
    using B::s_, B::x_, B::w_, B::y_;

  public:
    Case(const Shape& s, Method m, const Tuning& t, const Inputs& in, const emu::EmulationOptions& options)
        : B(s, m, in), method_(m), t_(t), options_(options) {}

    void run() override {
        switch (method_) {
            case Method::base: return gemm(plain_gemm<T>(s_.m, s_.n, s_.k, x_.get(), w_.get(), y_.get()));
            case Method::unfused: return this->unfused_calls([this](const GemmArgs<T>& g) { gemm(g); }, options_);
            case Method::fused:
            case Method::multi_adapter:
                return this->fused_calls(
                    method_, t_.group, [this](const DownArgs<T>& d) { down(d); },
                    [this](const GemmArgs<T>& g) { gemm(g); });
            case Method::cublas_unfused: break;
        }
    }

  private:
    void gemm(const GemmArgs<T>& g) {
        const dim3 grid(blocks(g.n, t_.bn), blocks(g.m, t_.bm));
        cuda::launch(launch_config(grid, gemm_threads(t_), gemm_shared_bytes(t_), options_), gemm_for<T>(t_.tm, t_.tn),
                     g, t_);
    }

    void down(const DownArgs<T>& d) {
        cuda::launch(launch_config(dim3(blocks(d.m, kDownWarps)), kDownWarps * kWarpSize, 0, options_),
                     down_project_for<T>(s_.r), d);
    }

    Method method_;
    Tuning t_;
    emu::EmulationOptions options_;
};

std::unique_ptr<DeviceCase> make_case(const Shape& s, Method m, const Tuning& t, const Inputs& in,
                                      const emu::EmulationOptions& options) {
    if (m == Method::cublas_unfused)
        throw std::invalid_argument("cuda lora: cublas_unfused calls cuBLAS (make_cublas_unfused_case)");
    validate(s, t);
    if (s.bf16) return std::make_unique<Case<__nv_bfloat16>>(s, m, t, in, options);
    return std::make_unique<Case<float>>(s, m, t, in, options);
}

}  // namespace

// A thread per element of whole mask words; a grid-stride add over at most 2^20 blocks.
template <class T>
void launch_dropout(const Shape& s, const T* x, const unsigned* mask, T* xd, const emu::EmulationOptions& o) {
    const long long threads = static_cast<long long>(s.m) * s.mask_words() * kWarpSize;
    cuda::launch(launch_config(dim3(blocks(threads, kPassThreads)), kPassThreads, 0, o), dropout_kernel<T>, s.m, s.k,
                 s.keep_scale, x, mask, xd);
}

template <class T>
void launch_scaled_add(long long n, float alpha, const T* t, T* y, const emu::EmulationOptions& o) {
    const auto grid = static_cast<unsigned>(std::min<long long>(blocks(n, kPassThreads), 1 << 20));
    cuda::launch(launch_config(dim3(grid), kPassThreads, 0, o), scaled_add_kernel<T>, n, alpha, t, y);
}

template void launch_dropout(const Shape&, const float*, const unsigned*, float*, const emu::EmulationOptions&);
template void launch_dropout(const Shape&, const __nv_bfloat16*, const unsigned*, __nv_bfloat16*,
                             const emu::EmulationOptions&);
template void launch_scaled_add(long long, float, const float*, float*, const emu::EmulationOptions&);
template void launch_scaled_add(long long, float, const __nv_bfloat16*, __nv_bfloat16*, const emu::EmulationOptions&);

#if defined(__CUDACC__)
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, Method m, const Tuning& t, const Inputs& in) {
    return make_case(s, m, t, in, emu::EmulationOptions{});
}
#else
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, Method m, const Tuning& t, const Inputs& in,
                                             const emu::EmulationOptions& options) {
    return make_case(s, m, t, in, options);
}
#endif

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
