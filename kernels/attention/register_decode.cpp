// The attention family's decode variants in the catalogue: decode_splitkv and topk_sparse on the
// CPU, and topk_sparse's CUDA kernels on cuda-emu and cuda (decode_splitkv's are register_cuda.cpp's).
#include <algorithm>

#include "core/catalogue.hpp"
#include "kernels/attention/cuda/topk_case.hpp"
#include "kernels/attention/decode.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "kernels/kit/cpu_instance.hpp"
#include "kernels/kit/cuda_variants.hpp"
#include "kernels/kit/placed_buffer.hpp"

namespace memwall {

namespace {

int splits_of(const Params& point) { return static_cast<int>(point.integer("num_splits")); }

Axis splits_axis(std::int64_t value, const std::string& what) {
    return bounded(tunable(int_axis("num_splits", {value}, what)), 1, 1024);
}

// A CPU topk_sparse case: the calibration and the label cache built at preparation (the label
// cache is kept as tokens are decoded, not rebuilt by a step), the output (O and the scores,
// poisoned) and the selected keys.
class TopkInstance final : public Instance {
  public:
    TopkInstance(const AttentionWorkload& w, const TopkSizes& t)
        : w_(w),
          t_(t),
          channels_(topk_calibrate(w.problem(), w.k().data(), t.channels)),
          label_(topk_label_cache(w.problem(), w.k().data(), channels_, t.channels)),
          out_(topk_output_floats(w.problem()), kit::PlacedAllocator<float>(attention_slot::kO)),
          selected_(static_cast<std::size_t>(w.problem().heads_total() * t.tokens)) {}

    void poison() override { std::fill(out_.begin(), out_.end(), std::numeric_limits<float>::quiet_NaN()); }
    void run() override {
        attention_topk_sparse(w_.problem(), t_, w_.q().data(), w_.k().data(), w_.v().data(), label_.data(),
                              channels_.data(), out_.data(), selected_.data());
    }
    Check check() const override { return topk_check(w_, channels_, t_, out_.data()); }
    std::vector<Counter> measured_counters() const override { return {topk_approx_error(w_, out_.data())}; }
    std::string detail() const override { return topk_channels_detail(channels_, t_.channels); }

  private:
    const AttentionWorkload& w_;
    TopkSizes t_;
    std::vector<std::int32_t> channels_;
    std::vector<float> label_;
    kit::PlacedBuffer out_;
    std::vector<std::int32_t> selected_;
};

// topk_sparse's own problem axes: the inputs' outlier channels, which its calibration ranks keys
// by, and its sizes r and k. The other variants' problems have none, so their cases keep their
// identity (decode_splitkv's time and check do not depend on the values either).
std::vector<Axis> topk_axes() {
    Axis outliers =
        int_axis("outliers", {4}, "channels per head of Q and K scaled by 8 (Double Sparsity's outliers; 0: none)");
    Axis channels = int_axis("label_channels", {16}, "label channels r per head");
    Axis sparsity = real_axis("sparsity", {0.0625}, "fraction of keys attended, k = ceil(sparsity * seq_k)");
    return {bounded(outliers, 0, 128), bounded(channels, 1, 128), bounded(sparsity, 0, 1)};
}

Constraint decode_only() {
    return {"seq_q is 1 (decode)", [](const Params& p) { return p.integer("seq_q") == 1; }};
}

Variant cpu_decode_variant() {
    Variant v;
    v.name = "decode_splitkv";
    v.description =
        "Flash-Decoding for seq_q = 1: (head, split) tasks over OpenMP each stream a key range of K and V "
        "(SIMD dot products, online softmax) into a partial output and log-sum-exp; a combine per head";
    v.backend = Backend::cpu;
    v.tunables = {splits_axis(8, "key ranges per head, one task each")};
    v.default_axes = {"seq_q=1", "seq_k=4096"};
    v.constraints = {decode_only(), {"num_splits is at most seq_k", [](const Params& p) {
                                         return p.integer("num_splits") <= p.integer("seq_k");
                                     }}};
    v.prepare = [](const Workload& wl, const Params& point) -> std::unique_ptr<Instance> {
        const auto& w = workload_as<AttentionWorkload>(wl);
        const int splits = splits_of(point);
        return std::make_unique<kit::CpuInstance<AttentionWorkload>>(
            w, w.problem().q_size(), decode_splitkv_workspace_floats(w.problem(), splits),
            [splits](const AttentionWorkload& x, float* o, float* ws) {
                attention_decode_splitkv(x.problem(), splits, x.q().data(), x.k().data(), x.v().data(), o, ws);
            },
            attention_slot::kO, attention_slot::kWorkspace);
    };
    v.model = [](const Params& point, const MemoryHierarchy& mh) {
        return decode_splitkv_model(AttentionProblem::from(point), splits_of(point), mh);
    };
    return v;
}

const char* const topk_description =
    "Double Sparsity for seq_q = 1: per head, the label_channels channels of largest mean |K| (calibrated at "
    "preparation, listed in the case's message) form a label cache; approximate scores q[r] . label pick the "
    "k = ceil(sparsity * seq_k) keys by radix selection; exact attention over them";

Variant cpu_topk_variant() {
    Variant v;
    v.name = "topk_sparse";
    v.description = std::string(topk_description) + "; a task per head over OpenMP, SIMD over keys";
    v.backend = Backend::cpu;
    v.problem_axes = topk_axes();
    v.default_axes = {"seq_q=1", "seq_k=4096"};
    v.constraints = {decode_only()};
    v.prepare = [](const Workload& wl, const Params& point) -> std::unique_ptr<Instance> {
        return std::make_unique<TopkInstance>(workload_as<AttentionWorkload>(wl), TopkSizes::from(point));
    };
    v.model = [](const Params& point, const MemoryHierarchy& mh) {
        return topk_model(AttentionProblem::from(point), TopkSizes::from(point), kTopkCpuPlan, mh);
    };
    return v;
}

attention_cuda::TopkTuning topk_tuning(const Params& point) {
    const TopkSizes t = TopkSizes::from(point);
    return {.channels = static_cast<int>(t.channels),
            .tokens = static_cast<int>(t.tokens),
            .splits = splits_of(point),
            .select_threads = static_cast<int>(point.integer("select_threads"))};
}

// The calibration and label cache on the host, then the device case of `make`.
template <class Make>
std::unique_ptr<kit::DeviceCase> topk_device_case(const Workload& wl, const Params& point, Make make) {
    const auto& w = workload_as<AttentionWorkload>(wl);
    const attention_cuda::TopkTuning t = topk_tuning(point);
    std::vector<std::int32_t> channels = topk_calibrate(w.problem(), w.k().data(), t.channels);
    const std::vector<float> label = topk_label_cache(w.problem(), w.k().data(), channels, t.channels);
    std::string detail = topk_channels_detail(channels, t.channels);
    return make(cuda_shape(w.problem()), t,
                attention_cuda::TopkInputs{w.q().data(), w.k().data(), w.v().data(), label.data(), std::move(channels),
                                           std::move(detail)});
}

// The device case's output after a run, and the channels and sizes it ran with.
struct TopkRun {
    std::vector<float> out;
    const attention_cuda::TopkDeviceCase& device;
    TopkSizes sizes;
};

TopkRun topk_run(const kit::DeviceCase& c) {
    const auto* t = dynamic_cast<const attention_cuda::TopkDeviceCase*>(&c);
    if (!t) throw std::logic_error("attention/topk_sparse: checked on another kernel's device case");
    std::vector<float> out(t->output_size());
    t->download(out.data());
    return {std::move(out), *t, {t->tuning().channels, t->tuning().tokens}};
}

kit::CudaKernel cuda_topk_kernel() {
    kit::CudaKernel k;
    k.name = "topk_sparse";
    k.description = std::string(topk_description) +
                    "; a block per head scores and selects (shared-memory histograms, block prefix sums), "
                    "decode_splitkv's kernels attend in num_splits slices and combine";
    const Axis threads =
        bounded(tunable(int_axis("select_threads", {256}, "threads of a head's scoring and selection block")), 32,
                attention_cuda::kMaxSelectThreads);
    k.problem_axes = topk_axes();
    k.tunables = {splits_axis(4, "blocks per head attending to slices of the selected keys"), threads};
    k.constraints = {decode_only(),
                     {"select_threads is a power of two",
                      [](const Params& p) {
                          const std::int64_t t = p.integer("select_threads");
                          return (t & (t - 1)) == 0;
                      }},
                     {"dtype is fp32", [](const Params& p) { return p.str("dtype") == "fp32"; }},
                     {"batch * heads is at most 65535 (CUDA grid limit)", [](const Params& p) {
                          return p.integer("batch") * p.integer("heads") <= attention_cuda::kMaxGridYz;
                      }}};
    k.default_axes = {"seq_q=1", "seq_k=4096", "dtype=fp32"};
    k.emu_default_axes = {"heads=2", "head_dim=64"};
    k.emu = [](const Workload& w, const Params& point) {
        return topk_device_case(w, point, [](auto&&... a) { return attention_cuda::cuda_emu::make_topk_case(a...); });
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [](const Workload& w, const Params& point) {
        return topk_device_case(w, point, [](auto&&... a) { return attention_cuda::cuda_gpu::make_topk_case(a...); });
    };
#endif
    k.check_case = [](const Workload& w, const kit::DeviceCase& c) {
        const TopkRun r = topk_run(c);
        return topk_check(workload_as<AttentionWorkload>(w), r.device.channels(), r.sizes, r.out.data());
    };
    k.model = [](const Params& point, const MemoryHierarchy& mh) {
        return topk_model(AttentionProblem::from(point), TopkSizes::from(point), topk_cuda_plan(splits_of(point)), mh);
    };
    k.output_counters = [](const Workload& w, const kit::DeviceCase& c) {
        return std::vector<Counter>{topk_approx_error(workload_as<AttentionWorkload>(w), topk_run(c).out.data())};
    };
    return k;
}

}  // namespace

void register_attention_decode(Catalogue& c) {
    for (Variant v : {cpu_decode_variant(), cpu_topk_variant()}) {
        v.constraints.push_back({"dtype is fp32 (the CPU kernels read and write fp32)",
                                 [](const Params& p) { return p.str("dtype") == "fp32"; }});
        c.add_variant("attention", std::move(v));
    }
    kit::add_cuda_variants(c, "attention", cuda_topk_kernel());
}

}  // namespace memwall
