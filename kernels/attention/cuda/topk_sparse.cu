// topk_sparse's device case: the label cache and channels uploaded with the inputs (the label
// cache is kept as tokens are decoded, so a step does not build it), then per forward pass the
// scoring and selection (topk_sparse.cuh), decode_split_kernel over the selected keys and the
// combine (decode_splitkv.cuh).
#include "kernels/attention/cuda/topk_sparse.cuh"
#include "kernels/kit/cuda/device_array.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

namespace {

class TopkCase final : public TopkDeviceCase {
  public:
    TopkCase(const Shape& s, const TopkTuning& t, const TopkInputs& in, const emu::EmulationOptions& options)
        : TopkDeviceCase(t, in.channels),
          s_(s),
          t_(t),
          options_(options),
          detail_(in.detail),
          q_(heads() * dim()),
          k_(heads() * static_cast<std::size_t>(s.seq_k) * dim()),
          v_(k_.size()),
          label_(heads() * static_cast<std::size_t>(t.channels) * static_cast<std::size_t>(s.seq_k)),
          channels_(heads() * static_cast<std::size_t>(t.channels)),
          out_(heads() * (dim() + static_cast<std::size_t>(s.seq_k))),
          selected_(heads() * static_cast<std::size_t>(t.tokens)),
          work_(heads() * static_cast<std::size_t>(t.splits) * (dim() + 1)) {
        q_.upload(in.q);
        k_.upload(in.k);
        v_.upload(in.v);
        label_.upload(in.label);
        check_cuda(cudaMemcpy(channels_.get(), in.channels.data(), channels_.bytes(), cudaMemcpyHostToDevice),
                   "cudaMemcpy");
    }

    void poison() override { out_.poison(); }

    void run() override {
        const unsigned heads_u = static_cast<unsigned>(s_.heads);
        float* o = out_.get();
        float* scores = o + heads() * dim();
        float* part_o = work_.get();
        float* part_lse = part_o + heads() * static_cast<std::size_t>(t_.splits) * dim();
        cuda::launch(launch_config(dim3(heads_u), t_.select_threads, 0, options_), topk_select_kernel, s_, t_.channels,
                     t_.tokens, static_cast<const int*>(channels_.get()), static_cast<const float*>(q_.get()),
                     static_cast<const float*>(label_.get()), scores, selected_.get());
        cuda::launch(launch_config(dim3(static_cast<unsigned>(t_.splits), heads_u), kDecodeThreads, 0, options_),
                     decode_split_kernel<float>, s_, t_.splits, t_.tokens, static_cast<const int*>(selected_.get()),
                     static_cast<const float*>(q_.get()), static_cast<const float*>(k_.get()),
                     static_cast<const float*>(v_.get()), part_o, part_lse);
        cuda::launch(launch_config(dim3(heads_u), s_.head_dim, 0, options_), decode_combine_kernel<float>, s_,
                     t_.splits, static_cast<const float*>(part_o), static_cast<const float*>(part_lse), o);
    }

    std::size_t output_size() const override { return out_.size(); }
    void download(float* out) const override { out_.download(out); }
    std::string detail() const override { return detail_; }

  private:
    std::size_t heads() const { return static_cast<std::size_t>(s_.heads); }
    std::size_t dim() const { return static_cast<std::size_t>(s_.head_dim); }

    Shape s_;
    TopkTuning t_;
    emu::EmulationOptions options_;
    std::string detail_;
    DeviceArray<float> q_, k_, v_, label_;
    DeviceArray<int> channels_;
    DeviceArray<float> out_;
    DeviceArray<int> selected_;
    DeviceArray<float> work_;
};

std::unique_ptr<TopkDeviceCase> make(const Shape& s, const TopkTuning& t, const TopkInputs& in,
                                     const emu::EmulationOptions& options) {
    validate_topk(s, t);
    return std::make_unique<TopkCase>(s, t, in, options);
}

}  // namespace

#if defined(__CUDACC__)
std::unique_ptr<TopkDeviceCase> make_topk_case(const Shape& s, const TopkTuning& t, const TopkInputs& in) {
    return make(s, t, in, emu::EmulationOptions{});
}
#else
std::unique_ptr<TopkDeviceCase> make_topk_case(const Shape& s, const TopkTuning& t, const TopkInputs& in,
                                               const emu::EmulationOptions& options) {
    return make(s, t, in, options);
}
#endif

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
