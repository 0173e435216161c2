// The CUDA attention variants (kernels/attention/cuda) in the catalogue, for cuda-emu (the
// kernels run on the CPU, their global-memory traffic counted) and for cuda (a real GPU).
//
// The dtype axis picks the element type of Q, K, V and O in device memory (fp32 or bf16; the
// kernels compute in fp32 either way): both are swept by default, as nvbench's type axes are.
//
// Counters of a case: the model counters (flops, bytes.min, bytes.<level>) come from the same
// formulas as the CPU variants, with the dtype's element size, so the roofline point of a CUDA
// case is placed by the CPU byte model; workspace.bytes is what the device allocates. cuda-emu
// adds the emulator's traffic counters (source emu) under their CUPTI names: they describe GPU
// memory traffic, not the CPU's, so they are stored beside the model and never replace it.
#include "kernels/attention/register_cuda.hpp"

#include <chrono>
#include <functional>
#include <limits>
#include <stdexcept>

#include "cuda_emu/traffic.hpp"
#include "core/catalogue.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#ifdef MEMWALL_HAVE_CUDA
#include "gpu/cold_timer.hpp"
#include "gpu/nvtx_range.hpp"
#endif

namespace memwall {

namespace {

using attention_cuda::Algorithm;
using attention_cuda::DeviceCase;
using attention_cuda::Tuning;

const AttentionWorkload& attention_workload(const Workload& w) {
    const auto* a = dynamic_cast<const AttentionWorkload*>(&w);
    if (!a) throw std::logic_error("attention: prepared on a workload of another family");
    return *a;
}

attention_cuda::Inputs inputs_of(const AttentionWorkload& w) {
    return {w.q().data(), w.k().data(), w.v().data()};
}

Tuning tuning_of(Algorithm a, const Params& point) {
    Tuning t;
    t.algorithm = a;
    if (a == Algorithm::flash) {
        t.br = static_cast<int>(point.integer("Br"));
        t.bc = static_cast<int>(point.integer("Bc"));
        t.warps = static_cast<int>(point.integer("warps"));
    } else if (a == Algorithm::decode_splitkv) {
        t.splits = static_cast<int>(point.integer("num_splits"));
    }
    return t;
}

// Turns the device case's std::invalid_argument into the harness's usage error.
std::unique_ptr<DeviceCase> checked(const std::function<std::unique_ptr<DeviceCase>()>& make) {
    try {
        return make();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

// cuda-emu: the forward pass runs on the CPU; measured counters are the emulator's traffic of
// the last run(), the one the harness checks.
class EmuInstance final : public Instance {
public:
    EmuInstance(const AttentionWorkload& w, const Tuning& t)
        : w_(w), o_(w.problem().q_size()), device_(checked([&] {
              return attention_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), t, inputs_of(w));
          })) {}

    void poison() override { device_->poison(); }
    void run() override {
        {
            emu::TrafficScope scope;
            device_->forward();
            traffic_ = scope.stats();
        }
        device_->download(o_.data());
    }
    Check check() const override { return w_.check(o_.data()); }
    // Emulation wall time of one forward pass: the table labels it as emulation, never as GPU
    // time.
    double run_timed() override {
        const auto t0 = std::chrono::steady_clock::now();
        device_->forward();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    std::vector<Counter> measured_counters() const override { return emu::traffic_counters(traffic_); }

private:
    const AttentionWorkload& w_;
    std::vector<float> o_;
    std::unique_ptr<DeviceCase> device_;
    emu::TrafficStats traffic_;
};

#ifdef MEMWALL_HAVE_CUDA
// cuda: the forward pass on the GPU, timed cold with CUDA events (gpu.hpp), inside an NVTX
// range for the whole case. Not yet run on a GPU.
class GpuInstance final : public Instance {
public:
    GpuInstance(const AttentionWorkload& w, const Tuning& t, const std::string& range)
        : range_(range), w_(w), o_(w.problem().q_size()), device_(checked([&] {
              return attention_cuda::cuda_gpu::make_device_case(cuda_shape(w.problem()), t, inputs_of(w));
          })) {}

    void poison() override { device_->poison(); }
    void run() override {
        device_->forward();
        device_->download(o_.data());
    }
    Check check() const override { return w_.check(o_.data()); }
    double run_timed() override { return timer_.seconds([this] { device_->forward(); }); }

private:
    gpu::NvtxRange range_;
    const AttentionWorkload& w_;
    std::vector<float> o_;
    std::unique_ptr<DeviceCase> device_;
    gpu::ColdTimer timer_;
};
#endif

// What differs between the three algorithms; the backends add the rest.
struct Algo {
    Algorithm algorithm;
    std::string name;
    std::string description;
    std::vector<Axis> tunables;
    std::vector<Constraint> constraints;
    std::function<std::vector<Counter>(const AttentionProblem&, const Params&, const MemoryHierarchy&)> model;
    std::vector<std::string> default_axes;  // see Variant::default_axes
};

// The model's workspace.bytes replaced by what the device allocates.
std::vector<Counter> with_device_workspace(std::vector<Counter> cs, const AttentionProblem& p, const Tuning& t) {
    const double bytes = 4.0 * static_cast<double>(attention_cuda::workspace_floats(cuda_shape(p), t));
    for (Counter& c : cs)
        if (c.name == counters::workspace) c.value = bytes;
    return cs;
}

Algo naive_algo() {
    Algo a{Algorithm::naive, "naive",
           "three kernels over the score matrix in global memory: S = scale*QK^T, row softmax, O = PV",
           {}, {}, nullptr};
    a.model = [](const AttentionProblem& p, const Params& point, const MemoryHierarchy& mh) {
        return with_device_workspace(naive_model(p, mh), p, tuning_of(Algorithm::naive, point));
    };
    return a;
}

Algo flash_algo() {
    Algo a{Algorithm::flash, "flash",
           "FlashAttention-2 order: a block per Br query rows, K/V tiles of Bc keys in shared memory, "
           "online softmax, Br/warps rows per warp",
           {}, {}, nullptr};
    Axis br = tunable(int_axis("Br", {64}, "query rows per block"));
    Axis bc = tunable(int_axis("Bc", {64}, "keys per shared-memory K/V tile"));
    Axis warps = tunable(int_axis("warps", {4}, "warps per block"));
    a.tunables = {bounded(br, 16, 128), bounded(bc, 16, 128), bounded(warps, 1, 32)};
    a.constraints = {
        {"Br and Bc are multiples of 16",
         [](const Params& p) { return p.integer("Br") % 16 == 0 && p.integer("Bc") % 16 == 0; }},
        {"Br is a multiple of warps (each warp owns Br/warps query rows)",
         [](const Params& p) { return p.integer("Br") % p.integer("warps") == 0; }},
        {"the Q, K, V, P tiles and the O accumulator fit in 227 KB of shared memory",
         [](const Params& p) {
             return attention_cuda::flash_shared_bytes(static_cast<int>(p.integer("Br")),
                                                       static_cast<int>(p.integer("Bc")),
                                                       static_cast<int>(p.integer("head_dim"))) <=
                    attention_cuda::max_shared_bytes;
         }},
    };
    a.model = [](const AttentionProblem& p, const Params& point, const MemoryHierarchy& mh) {
        const Tuning t = tuning_of(Algorithm::flash, point);
        return with_device_workspace(flash_model(p, {t.br, t.bc}, mh), p, t);
    };
    return a;
}

// Decode model: Q, K, V read and O written once (from dram), plus the partial outputs and
// log-sum-exps written by the split kernel and read by the combine.
Algo decode_algo() {
    Algo a{Algorithm::decode_splitkv, "decode_splitkv",
           "Flash-Decoding for seq_q = 1: num_splits blocks per head each attend to a key range and "
           "write a partial output and log-sum-exp; a second kernel combines them",
           {}, {}, nullptr};
    Axis splits = tunable(int_axis("num_splits", {8}, "key ranges per head, one block each"));
    a.tunables = {bounded(splits, 1, 1024)};
    a.default_axes = {"seq_q=1", "seq_k=4096"};
    a.constraints = {
        {"seq_q is 1 (decode)", [](const Params& p) { return p.integer("seq_q") == 1; }},
        {"num_splits is at most seq_k", [](const Params& p) { return p.integer("num_splits") <= p.integer("seq_k"); }},
    };
    a.model = [](const AttentionProblem& p, const Params& point, const MemoryHierarchy& mh) {
        const Tuning t = tuning_of(Algorithm::decode_splitkv, point);
        const double partials = 4.0 * static_cast<double>(attention_cuda::workspace_floats(cuda_shape(p), t));
        std::vector<Counter> out{
            {std::string(counters::flops), attention_flops(p), "FLOP", CounterSource::model},
            {std::string(counters::bytes_min), attention_compulsory_bytes(p), "B", CounterSource::model},
            {std::string(counters::workspace), partials, "B", CounterSource::model},
        };
        const auto levels = traffic_counters(
            mh, {{std::numeric_limits<double>::infinity(), attention_compulsory_bytes(p) + 2 * partials}});
        out.insert(out.end(), levels.begin(), levels.end());
        return out;
    };
    return a;
}

Variant variant_for(const Algo& a, Backend backend) {
    Variant v;
    v.name = a.name;
    v.backend = backend;
    v.description = a.description + (backend == Backend::cuda_emu
                                         ? " (CUDA source run on the CPU by cuda-emu; emu traffic counters)"
                                         : " (sm_80/sm_90 build; not yet run on a GPU)");
    v.tunables = a.tunables;
    v.default_axes = a.default_axes;
    v.default_axes.push_back("dtype=fp32,bf16");
    if (backend == Backend::cuda_emu) {
        // Emulation runs every CUDA thread on the CPU: default problems it finishes in seconds.
        v.default_axes.insert(v.default_axes.begin(), {"heads=2", "head_dim=64"});
        if (a.algorithm != Algorithm::decode_splitkv)
            v.default_axes.insert(v.default_axes.end(), {"seq_q=128,256", "seq_k=128,256"});
    }
    v.constraints = a.constraints;
    v.constraints.push_back({"batch * heads is at most 65535 (CUDA grid limit)", [](const Params& p) {
                                 return p.integer("batch") * p.integer("heads") <= attention_cuda::max_grid_yz;
                             }});
    const Algorithm algorithm = a.algorithm;
    const std::string name = a.name;
    if (backend == Backend::cuda_emu) {
        v.prepare = [algorithm](const Workload& wl, const Params& point) -> std::unique_ptr<Instance> {
            return std::make_unique<EmuInstance>(attention_workload(wl), tuning_of(algorithm, point));
        };
    } else {
        v.prepare = [algorithm, name](const Workload& wl, const Params& point) -> std::unique_ptr<Instance> {
#ifdef MEMWALL_HAVE_CUDA
            return std::make_unique<GpuInstance>(attention_workload(wl), tuning_of(algorithm, point),
                                                 "attention/" + name + "/cuda/" + point.label());
#else
            (void)wl, (void)point, (void)algorithm;
            throw std::runtime_error("attention/" + name + "/cuda: memwall was built without CUDA");
#endif
        };
    }
    v.model = [model = a.model](const Params& point, const MemoryHierarchy& mh) {
        return model(AttentionProblem::from(point), point, mh);
    };
    return v;
}

}  // namespace

attention_cuda::Shape cuda_shape(const AttentionProblem& p) {
    return {.heads = static_cast<int>(p.heads_total()),
            .seq_q = static_cast<int>(p.seq_q),
            .seq_k = static_cast<int>(p.seq_k),
            .head_dim = static_cast<int>(p.head_dim),
            .causal = p.causal ? 1 : 0,
            .scale = p.scale(),
            .dtype = p.dtype == AttentionDtype::bf16 ? attention_cuda::Dtype::bf16 : attention_cuda::Dtype::fp32};
}

void register_attention_cuda(Catalogue& c) {
    for (const Algo& a : {naive_algo(), flash_algo(), decode_algo()})
        for (Backend b : {Backend::cuda_emu, Backend::cuda}) c.add_variant("attention", variant_for(a, b));
}

}  // namespace memwall
