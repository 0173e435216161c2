// Launchers of the CUDA kv_offload variants (resident, zero_copy, staged, pipelined) and the
// device cases behind them; compiled by nvcc for GPUs (cuda_gpu) and by the host compiler for
// cuda-emu (cuda_emu), see memwall_add_family. No case synchronises the host inside run():
// the CPU's gathers run in stream order (cudaLaunchHostFunc), so a GPU timer around run()
// sees them, and its spinning start kernel cannot deadlock against a wait.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

// Standard headers (through device_case.hpp) before cuda-emu's macros.
#include "kernels/kv_offload/cuda/device_case.hpp"

#include "kernels/kit/cuda/device_array.cuh"
#include "kernels/kv_offload/cuda/decode.cuh"

namespace memwall::kv_cuda::MEMWALL_CUDA_NS {

namespace {

using Partial = void (*)(DecodeArgs);

Partial partial_for(int head_dim) {
    switch (head_dim) {
        case 32: return decode_partial_kernel<1>;
        case 64: return decode_partial_kernel<2>;
        case 128: return decode_partial_kernel<4>;
        default: return decode_partial_kernel<8>;
    }
}

std::size_t z(int x) { return static_cast<std::size_t>(x); }

// Page-locked host memory (cudaHostAlloc), freed with cudaFreeHost.
class PinnedBytes {
  public:
    PinnedBytes(std::size_t bytes, unsigned flags) {
        check_cuda(cudaHostAlloc(reinterpret_cast<void**>(&p_), bytes, flags), "cudaHostAlloc");
    }
    ~PinnedBytes() { cudaFreeHost(p_); }
    PinnedBytes(const PinnedBytes&) = delete;
    PinnedBytes& operator=(const PinnedBytes&) = delete;
    unsigned char* get() const { return p_; }

  private:
    unsigned char* p_ = nullptr;
};

class Stream {
  public:
    Stream() { check_cuda(cudaStreamCreate(&s_), "cudaStreamCreate"); }
    ~Stream() { cudaStreamDestroy(s_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return s_; }

  private:
    cudaStream_t s_ = nullptr;
};

class Event {
  public:
    Event() { check_cuda(cudaEventCreate(&e_), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(e_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return e_; }

  private:
    cudaEvent_t e_ = nullptr;
};

// What every variant has: the queries, the output, the partials, and the two launches of a step.
class KvCase : public DeviceCase {
  public:
    KvCase(const Shape& s, Method m, const Tuning& t, const Inputs& in, const emu::EmulationOptions& options)
        : s_(s),
          t_(t),
          options_(options),
          q_(z(s.steps) * z(s.heads) * z(s.head_dim)),
          out_(q_.size()),
          partial_(z(s.heads) * z(chunks(s, m, t)) * z(partials_per_launch(t)) * (z(s.head_dim) + 2)) {
        q_.upload(in.q);
    }
    void poison() override { out_.poison(); }
    std::size_t output_size() const override { return out_.size(); }
    void download(float* out) const override { out_.download(out); }

  protected:
    // Attention of step `step` over `pages` pages at `kv` (page_ids: which; null: in order), its
    // partials from `first_partial` of the step's `partials_per_head`.
    void attend(int step, const float* kv, const int* page_ids, int pages, int first_partial, int partials_per_head,
                cudaStream_t stream) {
        DecodeArgs a;
        a.kv = kv;
        a.page_stride = s_.page_floats();
        a.page_ids = page_ids;
        a.pages = pages;
        a.page_tokens = s_.page_tokens;
        a.heads = s_.heads;
        a.scale = 1.0f / std::sqrt(static_cast<float>(s_.head_dim));
        a.q = q_.get() + z(step) * z(s_.heads) * z(s_.head_dim);
        a.partial = partial_.get();
        a.partials_per_head = partials_per_head;
        a.first_partial = first_partial;
        cuda::launch(config(dim3(static_cast<unsigned>(t_.splits), static_cast<unsigned>(s_.heads)),
                            t_.warps * kWarpSize, stream),
                     partial_for(s_.head_dim), a);
    }
    void combine(int step, int partials_per_head, cudaStream_t stream) {
        cuda::launch(config(dim3(static_cast<unsigned>(s_.heads)), s_.head_dim, stream), decode_combine_kernel,
                     static_cast<const float*>(partial_.get()), partials_per_head, s_.head_dim,
                     out_.get() + z(step) * z(s_.heads) * z(s_.head_dim));
    }
    // One launch of attention over a step's selection, then the combine.
    void step_over(int step, const float* kv, const int* page_ids, int pages) {
        attend(step, kv, page_ids, pages, 0, partials_per_launch(t_), nullptr);
        combine(step, partials_per_launch(t_), nullptr);
    }

    Shape s_;
    Tuning t_;

  private:
    cuda::LaunchConfig config(dim3 grid, int threads, cudaStream_t stream) const {
        cuda::LaunchConfig c = launch_config(grid, threads, 0, options_);
        c.stream = stream;
        return c;
    }

    emu::EmulationOptions options_;
    DeviceArray<float> q_, out_, partial_;
};

// The step's selections in device memory, for the variants whose kernel looks its pages up.
class Selections {
  public:
    Selections(const Shape& s, const Inputs& in) : ids_(z(s.steps) * z(s.selected)), selected_(s.selected) {
        check_cuda(cudaMemcpy(ids_.get(), in.page_ids, ids_.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    const int* of(int step) const { return ids_.get() + z(step) * z(selected_); }

  private:
    DeviceArray<int> ids_;
    int selected_;
};

// resident: every page in device memory, the kernel reads the selected ones there.
class Resident final : public KvCase {
  public:
    Resident(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& o)
        : KvCase(s, Method::resident, t, in, o), kv_(z(s.pages) * s.page_floats()), ids_(s, in) {
        kv_.upload(in.kv);
    }
    void run() override {
        for (int step = 0; step < s_.steps; ++step) step_over(step, kv_.get(), ids_.of(step), s_.selected);
    }

  private:
    DeviceArray<float> kv_;
    Selections ids_;
};

// zero_copy: every page in mapped pinned host memory, `misalign` bytes past a page boundary (so
// past a 128-byte one); the kernel reads the selected pages over the bus through the device
// pointer. The KV is copied in once, when the case is made.
class ZeroCopy final : public KvCase {
  public:
    ZeroCopy(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& o)
        : KvCase(s, Method::zero_copy, t, in, o),
          host_(z(t.misalign) + z(s.pages) * s.page_bytes(), cudaHostAllocMapped),
          ids_(s, in) {
        std::memcpy(host_.get() + t.misalign, in.kv, z(s.pages) * s.page_bytes());
        void* device = nullptr;
        check_cuda(cudaHostGetDevicePointer(&device, host_.get(), 0), "cudaHostGetDevicePointer");
        kv_ = reinterpret_cast<const float*>(static_cast<const unsigned char*>(device) + t.misalign);
    }
    void run() override {
        for (int step = 0; step < s_.steps; ++step) step_over(step, kv_, ids_.of(step), s_.selected);
    }

  private:
    PinnedBytes host_;
    Selections ids_;
    const float* kv_ = nullptr;
};

// What staged and pipelined share: the KV in pageable host memory (the workload's), a pinned
// buffer and a device staging buffer of one step's pages, and the CPU's gathers into the pinned
// buffer, queued as host functions.
class Staging : public KvCase {
  public:
    Staging(const Shape& s, Method m, const Tuning& t, const Inputs& in, const emu::EmulationOptions& o)
        : KvCase(s, m, t, in, o),
          kv_(in.kv),
          ids_(in.page_ids, in.page_ids + z(s.steps) * z(s.selected)),
          pinned_(z(s.selected) * s.page_bytes(), cudaHostAllocDefault),
          staging_(z(s.selected) * s.page_floats()) {
        const int n = chunks(s, m, t), per = m == Method::pipelined ? t.chunk_pages : s.selected;
        for (int step = 0; step < s.steps; ++step)
            for (int c = 0; c < n; ++c) gathers_.push_back({this, step, c * per, std::min(per, s.selected - c * per)});
    }

  protected:
    struct Gather {
        const Staging* self;
        int step, first, count;  // of the step's selected pages
    };
    // Queues the CPU's copy of gathers_[i]'s pages into the pinned buffer, in stream order.
    void gather(std::size_t i, cudaStream_t stream) {
        check_cuda(cudaLaunchHostFunc(stream, run_gather, &gathers_[i]), "cudaLaunchHostFunc");
    }
    // Queues the copy of selected pages [first, first + count) to the staging buffer.
    void copy(int first, int count, cudaStream_t stream) {
        const std::size_t bytes = s_.page_bytes();
        check_cuda(cudaMemcpyAsync(staging_.get() + z(first) * s_.page_floats(), pinned_.get() + z(first) * bytes,
                                   z(count) * bytes, cudaMemcpyHostToDevice, stream),
                   "cudaMemcpyAsync");
    }
    const float* staged(int first) const { return staging_.get() + z(first) * s_.page_floats(); }

  private:
    static void run_gather(void* p) {
        const auto& g = *static_cast<const Gather*>(p);
        const Staging& c = *g.self;
        const std::size_t bytes = c.s_.page_bytes();
        const std::int32_t* ids = c.ids_.data() + z(g.step) * z(c.s_.selected);
        for (int i = g.first; i < g.first + g.count; ++i)
            std::memcpy(c.pinned_.get() + z(i) * bytes, c.kv_ + z(ids[i]) * c.s_.page_floats(), bytes);
    }

    const float* kv_;
    std::vector<std::int32_t> ids_;
    PinnedBytes pinned_;
    DeviceArray<float> staging_;
    std::vector<Gather> gathers_;  // per step and chunk
};

// staged: per step, the CPU gathers the selected pages into the pinned buffer, one
// cudaMemcpyAsync brings them to the device, then the kernel; all in order on one stream.
class Staged final : public Staging {
  public:
    Staged(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& o)
        : Staging(s, Method::staged, t, in, o) {}
    void run() override {
        for (int step = 0; step < s_.steps; ++step) {
            gather(z(step), nullptr);
            copy(0, s_.selected, nullptr);
            step_over(step, staged(0), nullptr, s_.selected);
        }
    }
};

// pipelined: staged in chunks of chunk_pages pages, each gathered and copied on a copy stream
// while the compute stream attends to the chunk before: the kernel on chunk i waits for chunk i's
// copy (an event), and the next step's copy of chunk i for the kernel on it (another).
class Pipelined final : public Staging {
  public:
    Pipelined(const Shape& s, const Tuning& t, const Inputs& in, const emu::EmulationOptions& o)
        : Staging(s, Method::pipelined, t, in, o),
          chunks_(chunks(s, Method::pipelined, t)),
          copied_(z(chunks_)),
          attended_(z(chunks_)) {}
    void run() override {
        const int per_launch = partials_per_launch(t_), per_head = chunks_ * per_launch;
        for (int step = 0; step < s_.steps; ++step) {
            for (int c = 0; c < chunks_; ++c) {
                const int first = c * t_.chunk_pages, count = std::min(t_.chunk_pages, s_.selected - first);
                check_cuda(cudaStreamWaitEvent(copy_.get(), attended_[z(c)].get(), 0), "cudaStreamWaitEvent");
                gather(z(step) * z(chunks_) + z(c), copy_.get());
                copy(first, count, copy_.get());
                check_cuda(cudaEventRecord(copied_[z(c)].get(), copy_.get()), "cudaEventRecord");
                check_cuda(cudaStreamWaitEvent(compute_.get(), copied_[z(c)].get(), 0), "cudaStreamWaitEvent");
                attend(step, staged(first), nullptr, count, c * per_launch, per_head, compute_.get());
                check_cuda(cudaEventRecord(attended_[z(c)].get(), compute_.get()), "cudaEventRecord");
            }
            combine(step, per_head, compute_.get());
        }
    }

  private:
    int chunks_;
    Stream copy_, compute_;
    std::vector<Event> copied_, attended_;  // per chunk
};

std::unique_ptr<DeviceCase> make_case(const Shape& s, Method m, const Tuning& t, const Inputs& in,
                                      const emu::EmulationOptions& options) {
    validate(s, t);
    switch (m) {
        case Method::resident: return std::make_unique<Resident>(s, t, in, options);
        case Method::zero_copy: return std::make_unique<ZeroCopy>(s, t, in, options);
        case Method::staged: return std::make_unique<Staged>(s, t, in, options);
        case Method::pipelined: return std::make_unique<Pipelined>(s, t, in, options);
    }
    throw std::invalid_argument("cuda kv_offload: unknown method");
}

}  // namespace

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

}  // namespace memwall::kv_cuda::MEMWALL_CUDA_NS
