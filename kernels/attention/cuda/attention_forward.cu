// Launchers of the CUDA attention kernels and the DeviceCase behind them; compiled by nvcc for
// GPUs (cuda_gpu) and by the host compiler for cuda-emu (cuda_emu), see CMakeLists.txt.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/attention/cuda/attention.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(e));
}

// A cudaMalloc'd array of floats.
class DeviceFloats {
public:
    explicit DeviceFloats(std::size_t n) : n_(n) {
        if (n_ > 0) check(cudaMalloc(&p_, n_ * sizeof(float)), "cudaMalloc");
    }
    ~DeviceFloats() { cudaFree(p_); }
    DeviceFloats(const DeviceFloats&) = delete;
    DeviceFloats& operator=(const DeviceFloats&) = delete;

    float* get() const { return p_; }
    std::size_t bytes() const { return n_ * sizeof(float); }
    void upload(const float* host) { check(cudaMemcpy(p_, host, bytes(), cudaMemcpyHostToDevice), "cudaMemcpy"); }

private:
    float* p_ = nullptr;
    std::size_t n_;
};

unsigned blocks(long long n, long long per_block) {
    return static_cast<unsigned>((n + per_block - 1) / per_block);
}

class Case final : public DeviceCase {
public:
    Case(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& options)
        : s_(s), t_(t), options_(options),
          q_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_q) * static_cast<std::size_t>(s.head_dim)),
          k_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_k) * static_cast<std::size_t>(s.head_dim)),
          v_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_k) * static_cast<std::size_t>(s.head_dim)),
          o_(static_cast<std::size_t>(s.heads) * static_cast<std::size_t>(s.seq_q) * static_cast<std::size_t>(s.head_dim)),
          work_(workspace_floats(s, t)) {
        q_.upload(in.q);
        k_.upload(in.k);
        v_.upload(in.v);
    }

    void poison() override { check(cudaMemset(o_.get(), 0xFF, o_.bytes()), "cudaMemset"); }

    void forward() override {
        switch (t_.algorithm) {
            case Algorithm::naive: return naive();
            case Algorithm::flash: return flash();
            case Algorithm::decode_splitkv: return decode();
        }
    }

    void download(float* o) const override {
        check(cudaMemcpy(o, o_.get(), o_.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    }

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
                     naive_scores_kernel, s_, q_.get(), k_.get(), work_.get());
        const long long rows = static_cast<long long>(s_.heads) * s_.seq_q;
        cuda::launch(config(dim3(blocks(rows, softmax_warps)), dim3(softmax_warps * warp_size)),
                     naive_softmax_kernel, s_, rows, work_.get());
        cuda::launch(config(dim3(static_cast<unsigned>(rows)), dim3(static_cast<unsigned>(s_.head_dim))),
                     naive_pv_kernel, s_, work_.get(), v_.get(), o_.get());
    }

    void flash() {
        cuda::launch(config(dim3(blocks(s_.seq_q, t_.br), static_cast<unsigned>(s_.heads)),
                            dim3(static_cast<unsigned>(t_.warps * warp_size)),
                            flash_shared_bytes(t_.br, t_.bc, s_.head_dim)),
                     flash_kernel, s_, t_.br, t_.bc, q_.get(), k_.get(), v_.get(), o_.get());
    }

    void decode() {
        float* part_o = work_.get();
        float* part_lse = part_o + static_cast<std::size_t>(s_.heads) * static_cast<std::size_t>(t_.splits) *
                                       static_cast<std::size_t>(s_.head_dim);
        cuda::launch(config(dim3(static_cast<unsigned>(t_.splits), static_cast<unsigned>(s_.heads)),
                            dim3(decode_threads)),
                     decode_split_kernel, s_, t_.splits, q_.get(), k_.get(), v_.get(), part_o, part_lse);
        cuda::launch(config(dim3(static_cast<unsigned>(s_.heads)), dim3(static_cast<unsigned>(s_.head_dim))),
                     decode_combine_kernel, s_, t_.splits, part_o, part_lse, o_.get());
    }

    Shape s_;
    Tuning t_;
    emu::EmulationOptions options_;
    DeviceFloats q_, k_, v_, o_, work_;
};

}  // namespace

#if defined(__CUDACC__)
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in) {
    validate(s, t);
    return std::make_unique<Case>(s, t, in, emu::EmulationOptions{});
}
#else
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in,
                                             const emu::EmulationOptions& options) {
    validate(s, t);
    return std::make_unique<Case>(s, t, in, options);
}
#endif

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS
