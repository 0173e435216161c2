// The bf16 tensor-core variants on a GPU: base_tc (Y = X·W), fused_tc (per adapter, the
// down-projection, then the GEMM adding S·B_a before its single store) and multi_adapter_tc (one
// down-projection and one GEMM per group of adapters, each token and tile row looking up its
// adapter),
// their GEMMs on tensor cores (gemm_wmma.cuh), the down-projection memwall's (down_project.cuh,
// float FMA: it moves X once and does 2·K·r FLOPs per token). GPU-only (cuda-emu has no tensor
// cores); compiled by nvcc alone (memwall_add_family's GPU_ONLY). Not yet run on a GPU.
#include <algorithm>

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
                for (int a = 0; a < s_.adapters; ++a) {
                    const long long t0 = s_.segment_begin(a);
                    const int rows = s_.segment_begin(a + 1) - s_.segment_begin(a);
                    down({rows, s_.k, s_.r, lora_scale(), x_.get() + t0 * s_.k, mask_.get() + t0 * s_.mask_words(),
                          a_of(a), nullptr, s_work() + t0 * s_.r});
                    gemm({rows, s_.n, s_.k, x_.get() + t0 * s_.k, w_.get(), y_.get() + t0 * s_.n, s_work() + t0 * s_.r,
                          b_of(a), nullptr, s_.r});
                }
                return;
            case Method::multi_adapter:
                for (int a = 0; a < s_.adapters; a += group_) {
                    const long long t0 = s_.segment_begin(a);
                    const int rows = s_.segment_begin(std::min(s_.adapters, a + group_)) - s_.segment_begin(a);
                    down({rows, s_.k, s_.r, lora_scale(), x_.get() + t0 * s_.k, mask_.get() + t0 * s_.mask_words(),
                          a_.get(), adapter_of_.get() + t0, s_work() + t0 * s_.r});
                    gemm({rows, s_.n, s_.k, x_.get() + t0 * s_.k, w_.get(), y_.get() + t0 * s_.n, s_work() + t0 * s_.r,
                          b_.get(), adapter_of_.get() + t0, s_.r});
                }
                return;
            case Method::unfused:
            case Method::cublas_unfused: break;
        }
    }

    std::string detail() const override {
        return "tensor cores: WMMA bf16 16x16x16 with float accumulators, 64x64 tiles of 4 warps, 32-deep stages";
    }

private:
    float lora_scale() const { return s_.alpha * s_.keep_scale; }

    void gemm(const GemmArgs<bf16>& g) {
        const dim3 grid(blocks(g.n, wmma_bn), blocks(g.m, wmma_bm));
        gemm_wmma_kernel<<<grid, wmma_threads, gemm_wmma_shared_bytes()>>>(g);
        check_cuda(cudaGetLastError(), "gemm_wmma_kernel launch");
    }

    // Columns of S per lane: r / 32 rounded up to a power of two (r <= max_rank).
    void down(const DownArgs<bf16>& d) {
        const dim3 grid(blocks(d.m, down_warps));
        const int threads = down_warps * warp_size;
        if (d.r <= 32)
            down_project_kernel<bf16, 1><<<grid, threads>>>(d);
        else if (d.r <= 64)
            down_project_kernel<bf16, 2><<<grid, threads>>>(d);
        else if (d.r <= 128)
            down_project_kernel<bf16, 4><<<grid, threads>>>(d);
        else
            down_project_kernel<bf16, 8><<<grid, threads>>>(d);
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
