// Launchers of the CUDA attention kernels and the DeviceCase behind them; compiled by nvcc for
// GPUs (cuda_gpu) and by the host compiler for cuda-emu (cuda_emu), see CMakeLists.txt.
#include "kernels/attention/cuda/decode_splitkv.cuh"
#include "kernels/attention/cuda/flash.cuh"
#include "kernels/attention/cuda/flash_tc_case.hpp"
#include "kernels/attention/cuda/naive.cuh"
#include "kernels/kit/cuda/device_array.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

namespace {

// One case of naive, flash or decode_splitkv with Q, K, V and O of element type T.
template <class T>
class Case final : public DeviceCase {
  public:
    Case(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& options)
        : s_(s),
          t_(t),
          options_(options),
          q_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_q) *
             static_cast<std::size_t>(s.head_dim)),
          k_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_k) *
             static_cast<std::size_t>(s.head_dim)),
          v_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_k) *
             static_cast<std::size_t>(s.head_dim)),
          o_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_q) *
             static_cast<std::size_t>(s.head_dim)),
          work_(workspace_floats(s, t)) {
        q_.upload(in.q);
        k_.upload(in.k);
        v_.upload(in.v);
    }

    void poison() override { o_.poison(); }

    void run() override {
        switch (t_.algorithm) {
            case Algorithm::naive: return naive();
            case Algorithm::flash: return flash();
            case Algorithm::decode_splitkv: return decode();
            case Algorithm::flash_tc: break;
        }
        throw std::logic_error("cuda attention: flash_tc runs in its own case (flash_tc.cu)");
    }

    std::size_t output_size() const override { return o_.size(); }
    void download(float* o) const override { o_.download(o); }

  private:
    cuda::LaunchConfig config(dim3 grid, dim3 block, std::size_t shared = 0) const {
        cuda::LaunchConfig c;
        c.grid = grid;
        c.block = block;
        c.dynamic_shared = shared;
        c.emu = options_;
        return c;
    }

    void naive() {
        constexpr int tile = 16, softmax_warps = 4;
        const unsigned heads = static_cast<unsigned>(s_.heads);
        cuda::launch(config(dim3(blocks(s_.seq_k, tile), blocks(s_.seq_q, tile), heads), dim3(tile, tile)),
                     naive_scores_kernel<T>, s_, q_.get(), k_.get(), work_.get());
        const long long rows = static_cast<long long>(s_.heads) * s_.seq_q;
        cuda::launch(config(dim3(blocks(rows, softmax_warps)), dim3(softmax_warps * kWarpSize)), naive_softmax_kernel,
                     s_, rows, work_.get());
        cuda::launch(config(dim3(static_cast<unsigned>(rows)), dim3(static_cast<unsigned>(s_.head_dim))),
                     naive_pv_kernel<T>, s_, work_.get(), v_.get(), o_.get());
    }

    void flash() {
        cuda::launch(
            config(dim3(blocks(s_.seq_q, t_.br), static_cast<unsigned>(s_.heads)),
                   dim3(static_cast<unsigned>(t_.warps * kWarpSize)), flash_shared_bytes(t_.br, t_.bc, s_.head_dim)),
            flash_kernel<T>, s_, t_.br, t_.bc, q_.get(), k_.get(), v_.get(), o_.get());
    }

    void decode() {
        float* part_o = work_.get();
        float* part_lse = part_o + static_cast<std::size_t>(s_.heads) * static_cast<std::size_t>(t_.splits) *
                                       static_cast<std::size_t>(s_.head_dim);
        cuda::launch(
            config(dim3(static_cast<unsigned>(t_.splits), static_cast<unsigned>(s_.heads)), dim3(kDecodeThreads)),
            decode_split_kernel<T>, s_, t_.splits, s_.seq_k, static_cast<const int*>(nullptr), q_.get(), k_.get(),
            v_.get(), part_o, part_lse);
        cuda::launch(config(dim3(static_cast<unsigned>(s_.heads)), dim3(static_cast<unsigned>(s_.head_dim))),
                     decode_combine_kernel<T>, s_, t_.splits, part_o, part_lse, o_.get());
    }

    Shape s_;
    Tuning t_;
    emu::EmulationOptions options_;
    DeviceArray<T> q_, k_, v_, o_;
    DeviceArray<float> work_;
};

std::unique_ptr<DeviceCase> make_case(const Shape& s, const Tuning& t, const Inputs& in,
                                      const emu::EmulationOptions& options) {
    validate(s, t);
    if (t.algorithm == Algorithm::flash_tc) return make_flash_tc_case(s, t, in, options);
    if (s.dtype == Dtype::bf16) return std::make_unique<Case<__nv_bfloat16>>(s, t, in, options);
    return std::make_unique<Case<float>>(s, t, in, options);
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

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
