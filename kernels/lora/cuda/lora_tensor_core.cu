// The bf16 tensor-core variants on a GPU: base_tc (Y = X·W), fused_tc (per adapter, the
// down-projection, then the GEMM adding S·B_a before its single store) and multi_adapter_tc (one
// down-projection and one GEMM per group of adapters, each token and tile row looking up its
// adapter),
// their GEMMs on tensor cores (gemm_wmma.cuh), the down-projection memwall's (down_project.cuh,
// float FMA: it moves X once and does 2·K·r FLOPs per token). GPU-only (cuda-emu has no tensor
// cores); compiled by nvcc alone (memwall_add_family's GPU_ONLY).
#include "kernels/lora/cuda/device_case.hpp"

#include "kernels/lora/cuda/buffers.cuh"
#include "kernels/lora/cuda/down_project.cuh"
#include "kernels/lora/cuda/gemm_wmma.cuh"

namespace memwall::lora_cuda::cuda_gpu {

namespace {

using bf16 = __nv_bfloat16;

class TensorCoreCase final : public LoraBuffers<bf16> {
public:
    TensorCoreCase(const Shape& s, Method m, int group, const Inputs& in)
        : LoraBuffers<bf16>(s, m, in), method_(m), group_(group) {}

    void forward() override {
        switch (method_) {
            case Method::base: return gemm(plain_gemm<bf16>(s_.m, s_.n, s_.k, x_.get(), w_.get(), y_.get()));
            case Method::fused:
            case Method::multi_adapter:
                return fused_calls(method_, group_, [this](const DownArgs<bf16>& d) { down(d); },
                                   [this](const GemmArgs<bf16>& g) { gemm(g); });
            case Method::unfused:
            case Method::cublas_unfused: break;
        }
    }

    std::string detail() const override {
        return "tensor cores: WMMA bf16 16x16x16 with float accumulators, 64x64 tiles of 4 warps, 32-deep stages";
    }

private:
    void gemm(const GemmArgs<bf16>& g) {
        const dim3 grid(blocks(g.n, wmma_bn), blocks(g.m, wmma_bm));
        gemm_wmma_kernel<<<grid, wmma_threads, gemm_wmma_shared_bytes()>>>(g);
        check_cuda(cudaGetLastError(), "gemm_wmma_kernel launch");
    }

    void down(const DownArgs<bf16>& d) {
        down_project_for<bf16>(d.r)<<<dim3(blocks(d.m, down_warps)), down_warps * warp_size>>>(d);
        check_cuda(cudaGetLastError(), "down_project_kernel launch");
    }

    Method method_;
    int group_;
};

}  // namespace

std::unique_ptr<DeviceCase> make_tensor_core_case(const Shape& s, Method m, const Tuning& t, const Inputs& in) {
    validate_tensor_core(s, m, t);
    return std::make_unique<TensorCoreCase>(s, m, t.group, in);
}

}  // namespace memwall::lora_cuda::cuda_gpu
