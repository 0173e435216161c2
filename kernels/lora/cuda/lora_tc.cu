// Launcher of the bf16 tensor-core variants (gemm_tc.cuh, one compiled kernel per tile of
// kTcTiles): base_tc (Y = X·W), unfused_tc (PyTorch's passes with this GEMM), fused_tc (per
// adapter the down-projection S = α/(1-p)(mask⊙X)·A_a, then the GEMM adding S·B_a before its
// single store) and multi_adapter_tc (the same per group of adapters, each token and tile row
// looking up its adapter), its down-projection on tensor cores too (down_project_tc.cuh).
// Compiled by nvcc for GPUs (cuda_gpu) and by the host compiler for cuda-emu.
#include <iterator>

// Standard headers (through device_case.hpp) before cuda-emu's macros.
#include "kernels/lora/cuda/device_case.hpp"

#include "kernels/lora/cuda/buffers.cuh"
#include "kernels/lora/cuda/down_project_tc.cuh"
#include "kernels/lora/cuda/gemm_tc.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

namespace {

using bf16 = __nv_bfloat16;
constexpr std::size_t kTileCount = std::size(kTcTiles);

class TcCase final : public LoraBuffers<bf16> {
  public:
    TcCase(const Shape& s, Method m, const TcTuning& t, std::size_t tile, const Inputs& in,
           const emu::EmulationOptions& options)
        : LoraBuffers<bf16>(s, m, in), method_(m), group_(t.group), tile_(tile), options_(options) {}

    void run() override {
        const auto gemm = [this](const GemmArgs<bf16>& g) { launch_gemm<0>(g); };
        switch (method_) {
            case Method::base: return gemm(plain_gemm<bf16>(s_.m, s_.n, s_.k, x_.get(), w_.get(), y_.get()));
            case Method::unfused: return unfused_calls(gemm, options_);
            case Method::fused:
            case Method::multi_adapter:
                return fused_calls(
                    method_, group_, [this](const DownArgs<bf16>& d) { down(d); }, gemm);
            case Method::cublas_unfused: break;
        }
    }

    std::string detail() const override {
        const TcTile& t = kTcTiles[tile_];
        return "tensor cores: mma.sync m16n8k16 bf16, fp32 accumulators; tile BM/BN/warps/stages " +
               std::to_string(t.bm) + "/" + std::to_string(t.bn) + "/" + std::to_string(t.warps) + "/" +
               std::to_string(t.stages) + ", 32-deep cp.async stages";
    }

  private:
    // The kernel of tile I of kTcTiles if it is the case's, else the next one's.
    template <std::size_t I>
    void launch_gemm(const GemmArgs<bf16>& g) {
        constexpr TcTile x = kTcTiles[I];
        if (I == tile_) {
            cuda::LaunchConfig c;
            c.grid = dim3(blocks(g.n, x.bn), blocks(g.m, x.bm));
            c.block = dim3(static_cast<unsigned>(x.warps * kWarpSize));
            c.dynamic_shared = gemm_tc_shared_bytes(x);
            c.emu = options_;
            cuda::launch(c, gemm_tc_kernel<x.bm, x.bn, x.warps, x.stages>, g);
        } else if constexpr (I + 1 < kTileCount) {
            launch_gemm<I + 1>(g);
        }
    }

    void down(const DownArgs<bf16>& d) {
        cuda::LaunchConfig c;
        c.grid = dim3(blocks(d.m, 16 * kDownTcWarps));
        c.block = dim3(static_cast<unsigned>(kDownTcWarps * kWarpSize));
        c.dynamic_shared = down_tc_shared_bytes(s_.r);
        c.emu = options_;
        cuda::launch(c, down_project_tc_for<kDownTcStages>(s_.r), d);
    }

    Method method_;
    int group_;
    std::size_t tile_;
    emu::EmulationOptions options_;
};

std::unique_ptr<DeviceCase> make_case(const Shape& s, Method m, const TcTuning& t, const Inputs& in,
                                      const emu::EmulationOptions& options) {
    validate_tensor_core(s, m, t);
    const auto tile = static_cast<std::size_t>(tc_tile(t.tile.bm, t.tile.bn, t.tile.warps, t.tile.stages) - kTcTiles);
    return std::make_unique<TcCase>(s, m, t, tile, in, options);
}

}  // namespace

#if defined(__CUDACC__)
std::unique_ptr<DeviceCase> make_tensor_core_case(const Shape& s, Method m, const TcTuning& t, const Inputs& in) {
    return make_case(s, m, t, in, emu::EmulationOptions{});
}
#else
std::unique_ptr<DeviceCase> make_tensor_core_case(const Shape& s, Method m, const TcTuning& t, const Inputs& in,
                                                  const emu::EmulationOptions& options) {
    return make_case(s, m, t, in, options);
}
#endif

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS
