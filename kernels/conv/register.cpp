// The conv family in the catalogue: its axes, the im2win layers as presets, the workload and
// the CPU variants.
#include "kernels/conv/register.hpp"

#include <algorithm>
#include <limits>

#include "kernels/conv/conv.hpp"
#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/conv/models.hpp"
#include "kernels/conv/register_cuda.hpp"
#include "kernels/kit/cpu_instance.hpp"
#include "kernels/kit/openblas.hpp"

namespace memwall {

namespace {

std::vector<std::string> layer_names() {
    std::vector<std::string> names;
    for (const ConvLayer& l : conv_layers()) names.push_back(l.name);
    return names;
}

using conv_cpu::Blocking;

// A case of a CPU kernel: the output (poisoned) and its workspace, after refusing a workspace
// this machine cannot hold.
std::unique_ptr<Instance> instance(const Workload& wl, const std::string& variant, std::size_t workspace_floats,
                                   double packed_bytes, kit::CpuInstance<ConvWorkload>::Kernel kernel) {
    refuse_oversized_workspace(variant, 4.0 * static_cast<double>(workspace_floats) + packed_bytes);
    const auto& w = workload_as<ConvWorkload>(wl);
    return std::make_unique<kit::CpuInstance<ConvWorkload>>(
        w, w.problem().output_size(), workspace_floats, std::move(kernel), conv_slot::kOutput, conv_slot::kWorkspace);
}

// The filter in pack_filter's layout for `isa` and k tiles of `kb`, made once per case (weights,
// as inference keeps them).
std::shared_ptr<const kit::PlacedBuffer> kPackedFilter(const ConvWorkload& w, Isa isa, int kb) {
    auto packed = std::make_shared<kit::PlacedBuffer>(conv_cpu::packed_filter_floats(w.problem(), isa),
                                                      kit::PlacedAllocator<float>(conv_slot::kPacked));
    conv_cpu::pack_filter(w.problem(), isa, kb, w.filter(), packed->data());
    return packed;
}

// Kb, Wb and Cb, the register tile and the channel step (cpu_tiles.hpp), for the ISA the
// catalogue is built at (the active one): defaults conv_cpu::default_blocking.
std::vector<Axis> blocking_tunables(Isa isa) {
    const int lanes = conv_cpu::lanes(isa), budget = conv_cpu::max_accumulators(isa);
    const Blocking def = conv_cpu::default_blocking(isa);
    Axis kb = tunable(int_axis("Kb", {def.kb}, "output channels per register tile (whole vectors)"));
    Axis wb = tunable(int_axis("Wb", {def.wb}, "output columns per register tile"));
    Axis cb = tunable(int_axis("Cb", {def.cb}, "input channels per step (the step's filter stays in L1)"));
    return {bounded(kb, lanes, conv_cpu::kMaxKv * lanes), bounded(wb, 1, budget), bounded(cb, 1, 4096)};
}

// direct and im2win: the register tiles of cpu_tiles.hpp, the filter packed once; they differ in
// where the taps come from, the workspace that needs, and the model. `kernel(isa)` is the ISA's.
using TiledKernel = void (*)(const ConvProblem&, const Blocking&, const float* input, const float* packed, float* out,
                             float* workspace);
using TiledModel = std::vector<Counter> (*)(const ConvProblem&, const Blocking&, const MemoryHierarchy&);

Variant tiled_variant(std::string name, std::string description, std::size_t (*workspace_floats)(const ConvProblem&),
                      TiledKernel (*kernel_of)(Isa), TiledModel model) {
    Variant v;
    v.name = name;
    v.description = std::move(description);
    v.backend = Backend::cpu;
    v.tunables = blocking_tunables(active_isa());
    v.constraints = conv_cpu::blocking_constraints(active_isa());
    v.prepare = [name, workspace_floats, kernel_of](const Workload& wl, const Params& point) {
        const Isa isa = active_isa();
        const Blocking b = conv_cpu::blocking_of(point);
        conv_cpu::validate(b, isa);
        const TiledKernel kernel = kernel_of(isa);
        const auto& w = workload_as<ConvWorkload>(wl);
        auto packed = kPackedFilter(w, isa, b.kb);
        return instance(wl, name, workspace_floats(w.problem()), 4.0 * static_cast<double>(packed->size()),
                        [b, packed, kernel](const ConvWorkload& x, float* out, float* workspace) {
                            kernel(x.problem(), b, x.input(), packed->data(), out, workspace);
                        });
    };
    v.model = [model](const Params& point, const MemoryHierarchy& mh) {
        return model(ConvProblem::from(point), conv_cpu::blocking_of(point), mh);
    };
    return v;
}

Variant direct_variant() {
    return tiled_variant(
        "direct",
        "blocked direct convolution: register tiles of Kb channels x Wb columns over the NCHW input, Cb input "
        "channels per step; filter packed once",
        [](const ConvProblem&) -> std::size_t { return 0; },
        [](Isa isa) -> TiledKernel {
            if (isa == Isa::avx512)
                return [](const ConvProblem& p, const Blocking& b, const float* input, const float* packed, float* out,
                          float*) { conv_cpu::conv_direct<Isa::avx512>(p, b, input, packed, out); };
            return [](const ConvProblem& p, const Blocking& b, const float* input, const float* packed, float* out,
                      float*) { conv_cpu::conv_direct<Isa::avx2>(p, b, input, packed, out); };
        },
        direct_model);
}

Variant im2win_variant() {
    return tiled_variant(
        "im2win",
        "im2win: the window-order transform (C*P*(W+2pad)*R per image), then register tiles of Kb "
        "channels x Wb columns over it, Cb input channels per step; filter packed once",
        conv_cpu::im2win_floats,
        [](Isa isa) -> TiledKernel {
            return isa == Isa::avx512 ? conv_cpu::conv_im2win<Isa::avx512> : conv_cpu::conv_im2win<Isa::avx2>;
        },
        im2win_model);
}

Variant im2col_gemm_variant() {
    Variant v;
    v.name = "im2col_gemm";
    v.description = "im2col buffer (C*R*S x P*Q per image), then one OpenBLAS sgemm per image";
    v.backend = Backend::cpu;
    v.prepare = [](const Workload& wl, const Params&) {
        const auto& p = workload_as<ConvWorkload>(wl).problem();
        (void)kit::openblas::sgemm();  // loads OpenBLAS now: a failure is the case's
        return instance(wl, "im2col_gemm", conv_cpu::im2col_floats(p), 0,
                        [](const ConvWorkload& x, float* out, float* col) {
                            conv_cpu::conv_im2col_gemm(x.problem(), x.input(), x.filter(), out, col);
                        });
    };
    v.model = [](const Params& point, const MemoryHierarchy& mh) {
        return im2col_gemm_model(ConvProblem::from(point), mh);
    };
    return v;
}

// oneDNN's case: its own primitive and buffers; the output poisoned and checked like the others.
class OnednnInstance final : public Instance {
  public:
    explicit OnednnInstance(const ConvWorkload& w)
        : w_(w),
          conv_(w.problem(), w.input(), w.filter()),
          out_(w.problem().output_size(), kit::PlacedAllocator<float>(conv_slot::kOutput)) {}
    void poison() override { std::fill(out_.begin(), out_.end(), std::numeric_limits<float>::quiet_NaN()); }
    void run() override { conv_.run(out_.data()); }
    Check check() const override { return w_.check(out_.data()); }
    std::string detail() const override { return conv_.plan().describe(); }

  private:
    const ConvWorkload& w_;
    conv_cpu::OnednnConv conv_;
    kit::PlacedBuffer out_;
};

Variant onednn_variant() {
    Variant v;
    v.name = "onednn";
    v.description =
        "peer: oneDNN convolution_forward (convolution_auto; algorithm, ISA and layouts its own; "
        "NCHW converted in each run when it prefers blocked layouts)";
    v.backend = Backend::cpu;
    v.prepare = [](const Workload& wl, const Params&) -> std::unique_ptr<Instance> {
        return std::make_unique<OnednnInstance>(workload_as<ConvWorkload>(wl));
    };
    v.model = [](const Params& point, const MemoryHierarchy& mh) { return onednn_model(ConvProblem::from(point), mh); };
    return v;
}

}  // namespace

void register_conv(Catalogue& c) {
    Family f;
    f.name = "conv";
    f.description =
        "2D convolution, fp32, NCHW input and output, KCRS filter (out = in * filter, stride, zero padding)";
    std::vector<std::string> choices = {"custom"};
    for (const auto& n : layer_names()) choices.push_back(n);
    f.problem_axes = {
        enum_axis("layer", choices, layer_names(),
                  "the im2win paper's layers conv1..conv12 (set C, H, W, K, R, S, stride; pad 0), or custom"),
        bounded(int_axis("batch", {1},
                         "images N (the paper uses 128; 1 keeps a CPU sweep of the twelve layers "
                         "to a few minutes)"),
                1, 1 << 16),
        bounded(int_axis("C", {64}, "input channels"), 1, 1 << 16),
        bounded(int_axis("H", {56}, "input height"), 1, 1 << 16),
        bounded(int_axis("W", {56}, "input width"), 1, 1 << 16),
        bounded(int_axis("K", {64}, "filters (output channels)"), 1, 1 << 16),
        bounded(int_axis("R", {3}, "filter height"), 1, 1 << 10),
        bounded(int_axis("S", {3}, "filter width"), 1, 1 << 10),
        bounded(int_axis("stride", {1}, "stride (both dimensions)"), 1, 1 << 10),
        bounded(int_axis("pad", {1}, "zero padding on each side (both dimensions)"), 0, 1 << 10),
        enum_axis("dtype", {"fp32", "bf16", "tf32"}, {"fp32"},
                  "what the products multiply, accumulating in fp32: fp32 FMA; bf16 tensor cores (bf16 in memory); "
                  "tf32 tensor cores (fp32 in memory); the tensor-core variants take bf16 and tf32, the others fp32"),
    };
    f.zipped = {{"R", "S"}};
    f.presets = conv_layer_presets();
    f.validate = [](const Params& p) { (void)ConvProblem::from(p); };
    f.make_workload = [](const Params& problem, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<ConvWorkload>(ConvProblem::from(problem), seed);
    };
    c.add_family(std::move(f));
    for (Variant v : {direct_variant(), im2col_gemm_variant(), im2win_variant(), onednn_variant()}) {
        v.constraints.push_back(conv_fp32_only());
        c.add_variant("conv", std::move(v));
    }
    register_conv_cuda(c);
}

}  // namespace memwall
