// Launcher of implicit_gemm_tc and im2win_tc (bf16 storage, or fp32 storage multiplied as tf32),
// one compiled kernel per tile of kConvTcTiles; compiled by nvcc for GPUs (cuda_gpu) and by the
// host compiler for cuda-emu. The NHWC and KRSC/KSRC layouts (tc_tiles.hpp) are made on upload
// and undone on download, outside run().
#include <cstdint>
#include <vector>

// Standard headers (through conv_tc_case.hpp) before cuda-emu's macros.
#include "kernels/conv/cuda/conv_tc_case.hpp"

#include "kernels/conv/cuda/buffers.cuh"
#include "kernels/conv/cuda/im2win_tc.cuh"
#include "kernels/conv/cuda/im2win_transform_nhwc.cuh"
#include "kernels/conv/cuda/implicit_gemm_tc.cuh"

namespace memwall::conv_cuda::MEMWALL_CUDA_NS {

namespace {

constexpr std::size_t kTileCount = sizeof(kConvTcTiles) / sizeof(kConvTcTiles[0]);

std::size_t z(long long x) { return static_cast<std::size_t>(x); }

template <class T>
class TcCase final : public DeviceCase {
  public:
    TcCase(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& options)
        : s_(s),
          t_(t),
          tile_(static_cast<std::size_t>(conv_tc_tile_index(t.bm, t.bn, t.stages))),
          options_(options),
          channels_(conv_tc_channels(s.c, static_cast<int>(sizeof(T)))),
          in_(z(s.n) * z(s.h) * z(s.w) * z(channels_)),
          filter_(z(s.k) * z(s.r) * z(s.s) * z(channels_)),
          out_(z(s.n) * z(s.p) * z(s.q) * z(s.k)),
          win_(t.algorithm == Algorithm::im2win_tc ? tc_window_elements(s) : 0) {
        // NCHW to NHWC, the padding channels 0.
        std::vector<float> x(in_.size(), 0.0f);
        for (std::size_t n = 0; n < z(s.n); ++n)
            for (std::size_t c = 0; c < z(s.c); ++c)
                for (std::size_t i = 0; i < z(s.h) * z(s.w); ++i)
                    x[(n * z(s.h) * z(s.w) + i) * z(channels_) + c] = in.input[(n * z(s.c) + c) * z(s.h) * z(s.w) + i];
        in_.upload(x.data());
        // KCRS to KRSC (implicit_gemm_tc) or KSRC (im2win_tc, the window's order).
        const bool window_order = t.algorithm == Algorithm::im2win_tc;
        std::vector<float> f(filter_.size(), 0.0f);
        for (std::size_t k = 0; k < z(s.k); ++k)
            for (std::size_t c = 0; c < z(s.c); ++c)
                for (std::size_t r = 0; r < z(s.r); ++r)
                    for (std::size_t q = 0; q < z(s.s); ++q) {
                        const std::size_t tap = window_order ? q * z(s.r) + r : r * z(s.s) + q;
                        f[(k * z(s.r) * z(s.s) + tap) * z(channels_) + c] =
                            in.filter[((k * z(s.c) + c) * z(s.r) + r) * z(s.s) + q];
                    }
        filter_.upload(f.data());
    }

    void poison() override { out_.poison(); }
    void run() override { launch<0>(); }
    std::size_t output_size() const override { return out_.size(); }
    // NHWC to NCHW.
    void download(float* out) const override {
        std::vector<float> x(out_.size());
        out_.download(x.data());
        const std::size_t pq = z(s_.p) * z(s_.q), k = z(s_.k);
        for (std::size_t n = 0; n < z(s_.n); ++n)
            for (std::size_t i = 0; i < pq; ++i)
                for (std::size_t j = 0; j < k; ++j) out[(n * k + j) * pq + i] = x[(n * pq + i) * k + j];
    }

  private:
    cuda::LaunchConfig config(dim3 grid, int threads, std::size_t shared = 0) const {
        return launch_config(grid, threads, shared, options_);
    }

    // The kernels of tile I of kConvTcTiles if it is the case's, else the next one's.
    template <std::size_t I>
    void launch() {
        constexpr ConvTcTile x = kConvTcTiles[I];
        if (I == tile_) {
            const long long pixels = static_cast<long long>(s_.n) * s_.p * s_.q;
            const cuda::LaunchConfig c = config(dim3(blocks(pixels, x.bn), blocks(s_.k, x.bm)),
                                                kConvTcWarps * kWarpSize, conv_tc_shared_bytes(x.bm, x.bn, x.stages));
            if (t_.algorithm == Algorithm::implicit_gemm_tc) {
                cuda::launch(c, implicit_gemm_tc_kernel<T, x.bm, x.bn, x.stages>, s_, channels_, in_.get(),
                             filter_.get(), out_.get());
            } else {
                constexpr std::size_t per_chunk = kConvTcChunkBytes / sizeof(T);  // elements
                const int chunks = channels_ / static_cast<int>(per_chunk);
                cuda::launch(config(dim3(transform_blocks(win_.size() / per_chunk)), kTransformThreads),
                             im2win_transform_nhwc_kernel, s_, chunks, reinterpret_cast<const uint4*>(in_.get()),
                             reinterpret_cast<uint4*>(win_.get()));
                cuda::launch(c, im2win_tc_kernel<T, x.bm, x.bn, x.stages>, s_, channels_, win_.get(), filter_.get(),
                             out_.get());
            }
        } else if constexpr (I + 1 < kTileCount) {
            launch<I + 1>();
        }
    }

    Shape s_;
    Tuning t_;
    std::size_t tile_;
    emu::EmulationOptions options_;
    int channels_;
    DeviceArray<T> in_, filter_, out_, win_;
};

}  // namespace

std::unique_ptr<DeviceCase> make_tc_case(const Shape& s, const Tuning& t, const Inputs& in,
                                         const emu::EmulationOptions& options) {
    if (s.dtype == Dtype::bf16) return std::make_unique<TcCase<__nv_bfloat16>>(s, t, in, options);
    return std::make_unique<TcCase<float>>(s, t, in, options);
}

}  // namespace memwall::conv_cuda::MEMWALL_CUDA_NS
