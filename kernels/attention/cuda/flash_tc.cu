// Launcher of flash_tc (flash_tc.cuh): bf16 Q, K, V and O, one compiled kernel per tile of
// kFlashTcTiles; compiled by nvcc for GPUs (cuda_gpu) and by the host compiler for cuda-emu.
#include "kernels/attention/cuda/flash_tc.cuh"
#include "kernels/attention/cuda/flash_tc_case.hpp"
#include "kernels/kit/cuda/device_array.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

namespace {

constexpr std::size_t kTileCount = sizeof(kFlashTcTiles) / sizeof(kFlashTcTiles[0]);

class FlashTcCase final : public DeviceCase {
  public:
    FlashTcCase(const Shape& s, std::size_t tile, const Inputs& in, const emu::EmulationOptions& options)
        : s_(s),
          tile_(tile),
          options_(options),
          q_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_q) *
             static_cast<std::size_t>(s.head_dim)),
          k_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_k) *
             static_cast<std::size_t>(s.head_dim)),
          v_(k_.size()),
          o_(q_.size()) {
        q_.upload(in.q);
        k_.upload(in.k);
        v_.upload(in.v);
    }

    void poison() override { o_.poison(); }
    void run() override { launch<0>(); }
    std::size_t output_size() const override { return o_.size(); }
    void download(float* o) const override { o_.download(o); }

  private:
    // The kernel of tile I of kFlashTcTiles if it is the case's, else the next one's.
    template <std::size_t I>
    void launch() {
        constexpr FlashTcTile x = kFlashTcTiles[I];
        static_assert(x.warps * 16 == x.br, "each warp owns 16 query rows");
        if (I == tile_) {
            cuda::LaunchConfig c;
            c.grid = dim3(blocks(s_.seq_q, x.br), static_cast<unsigned>(s_.heads));
            c.block = dim3(static_cast<unsigned>(x.warps * kWarpSize));
            c.dynamic_shared = flash_tc_shared_bytes(x.br, x.bc, x.head_dim, x.stages);
            c.emu = options_;
            cuda::launch(c, flash_tc_kernel<x.head_dim, x.br, x.bc, x.stages>, s_, q_.get(), k_.get(), v_.get(),
                         o_.get());
        } else if constexpr (I + 1 < kTileCount) {
            launch<I + 1>();
        }
    }

    Shape s_;
    std::size_t tile_;
    emu::EmulationOptions options_;
    DeviceArray<__nv_bfloat16> q_, k_, v_, o_;
};

}  // namespace

std::unique_ptr<DeviceCase> make_flash_tc_case(const Shape& s, const Tuning& t, const Inputs& in,
                                               const emu::EmulationOptions& options) {
    const auto tile = static_cast<std::size_t>(flash_tc_tile(s.head_dim, t) - kFlashTcTiles);
    return std::make_unique<FlashTcCase>(s, tile, in, options);
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
