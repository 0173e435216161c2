// The lora family in the catalogue: its axes, LoRAFusion's shapes as presets, the workload and
// the CPU variants.
#include "kernels/lora/register.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "kernels/lora/cpu_kernels.hpp"
#include "kernels/lora/lora.hpp"
#include "kernels/lora/models.hpp"
#include "kernels/lora/register_cuda.hpp"

namespace memwall {

namespace {

// A case of a CPU kernel: Y in the dtype, poisoned with NaN before the checked run; base is
// checked against X·W alone. Each pass is timed (phase.<pass>.seconds: gemm, dropout, down, up,
// add), so a case says where its time over base goes.
class LoraInstance final : public Instance {
  public:
    LoraInstance(const LoraWorkload& w, std::unique_ptr<lora_cpu::Kernel> kernel, bool base_only)
        : w_(w),
          kernel_(std::move(kernel)),
          base_only_(base_only),
          y_(static_cast<std::size_t>(w.problem().m * w.problem().n) * w.problem().element_bytes(),
             kit::PlacedAllocator<std::byte>(lora_slot::kY)) {}

    void poison() override {
        if (w_.problem().dtype == LoraDtype::bf16) {
            auto* y = reinterpret_cast<std::uint16_t*>(y_.data());
            std::fill(y, y + y_.size() / 2, std::uint16_t{0x7fc0});  // bf16's quiet NaN
        } else {
            auto* y = reinterpret_cast<float*>(y_.data());
            std::fill(y, y + y_.size() / 4, std::numeric_limits<float>::quiet_NaN());
        }
    }
    void run() override {
        phases_.start();
        kernel_->run(y_.data(), phases_);
    }
    Check check() const override { return w_.check(y_.data(), base_only_); }
    std::string detail() const override { return kernel_->detail(); }
    std::vector<Counter> sampled_counters() const override { return phases_.counters(); }

  private:
    const LoraWorkload& w_;
    std::unique_ptr<lora_cpu::Kernel> kernel_;
    bool base_only_;
    ByteBuffer y_;
    kit::PhaseTimes phases_;
};

lora_cpu::Tiles tiles_of(const Params& point) {
    lora_cpu::Tiles t;
    t.tile_m = point.integer("tile_m");
    t.tile_n = point.integer("tile_n");
    return t;
}

// multi_adapter's adapter grouping: adapters per batched call. 1 is fused's per-adapter calls,
// as many as the batch has one call; between them, fewer passes over W against smaller calls.
Axis group_tunable() {
    return bounded(tunable(int_axis("group", {8}, "adapters per batched call (each call streams W once)")), 1, 1024);
}

std::vector<Axis> tile_tunables() {
    return {
        bounded(tunable(int_axis("tile_m", {lora_cpu::Tiles{}.tile_m},
                                 "tokens per task of the fused pass (their S stays in cache between the projections)")),
                1, 1 << 16),
        bounded(tunable(int_axis(
                    "tile_n", {lora_cpu::Tiles{}.tile_n},
                    "columns of Y per block of the up-projection (B's block is reused across the task's tokens)")),
                1, 1 << 20)};
}

Variant variant(std::string name, std::string description, LoraMethod method) {
    Variant v;
    v.name = std::move(name);
    v.description = std::move(description);
    v.backend = Backend::cpu;
    const bool tiled = method == LoraMethod::fused || method == LoraMethod::multi_adapter;
    if (tiled) v.tunables = tile_tunables();
    if (method == LoraMethod::multi_adapter) v.tunables.push_back(group_tunable());
    v.prepare = [method](const Workload& wl, const Params& point) -> std::unique_ptr<Instance> {
        const auto& w = workload_as<LoraWorkload>(wl);
        std::unique_ptr<lora_cpu::Kernel> k;
        switch (method) {
            case LoraMethod::base: k = lora_cpu::make_base(w); break;
            case LoraMethod::unfused: k = lora_cpu::make_unfused(w); break;
            case LoraMethod::fused: k = lora_cpu::make_fused(w, tiles_of(point)); break;
            case LoraMethod::multi_adapter:
                k = lora_cpu::make_multi_adapter(w, tiles_of(point), point.integer("group"));
                break;
        }
        return std::make_unique<LoraInstance>(w, std::move(k), method == LoraMethod::base);
    };
    v.model = [method](const Params& point, const MemoryHierarchy& mh) {
        return lora_model(LoraProblem::from(point), method, mh,
                          method == LoraMethod::multi_adapter ? point.integer("group") : 0);
    };
    return v;
}

}  // namespace

void register_lora(Catalogue& c) {
    Family f;
    f.name = "lora";
    f.description =
        "LoRA: Y = X·W + α·(dropout(X)·A)·B per adapter's tokens, fp32 or bf16 (fp32 arithmetic); "
        "the dropout mask is an input drawn from the seed";
    std::vector<std::string> choices = {"custom"};
    for (const auto& n : lora_shape_names()) choices.push_back(n);
    f.problem_axes = {
        enum_axis(
            "shape", choices, {"custom"},
            "LoRAFusion's shapes lorafusion4096/5120/8192 (set K = N, r = 16, alpha = 16, dropout = 0.1), or custom"),
        bounded(int_axis("M", {256}, "tokens (rows of X and Y); LoRAFusion runs 2048 to 8192"), 1, 1 << 20),
        bounded(int_axis("K", {1024}, "input features (columns of X, rows of W)"), 1, 1 << 20),
        bounded(int_axis("N", {1024}, "output features (columns of W and Y)"), 1, 1 << 20),
        bounded(int_axis("r", {16}, "adapter rank"), 1, 4096),
        bounded(
            int_axis("adapters", {1}, "adapters in the batch; tokens are split among them in equal contiguous runs"), 1,
            1 << 16),
        bounded(real_axis("dropout", {0.1},
                          "dropout probability p on the adapter's input (kept elements scaled by 1/(1-p))"),
                0, 0.999),
        real_axis("alpha", {16.0}, "scale α of the adapter's term (peft's lora_alpha / r is α here)"),
        enum_axis("dtype", {"fp32", "bf16"}, {"fp32"}, "element type of X, W, A, B and Y (arithmetic is fp32)"),
    };
    f.presets = lora_shape_presets();
    f.validate = [](const Params& p) { (void)LoraProblem::from(p); };
    f.make_workload = [](const Params& problem, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<LoraWorkload>(LoraProblem::from(problem), seed);
    };
    c.add_family(std::move(f));
    for (Variant v : {variant("base", "the frozen GEMM alone, Y = X·W (OpenBLAS sgemm / oneDNN bf16 matmul): the floor",
                              LoraMethod::base),
                      variant("unfused",
                              "PyTorch's LoRA: base GEMM, dropout, down-projection, up-projection and scaled add as "
                              "separate passes (library GEMMs)",
                              LoraMethod::unfused),
                      variant("fused",
                              "LoRAFusion's fusion: the base GEMM, then one pass with dropout and scale in the "
                              "down-projection's read of X and S·B added to Y a task of tokens at a time; one call per "
                              "adapter",
                              LoraMethod::fused),
                      variant("multi_adapter",
                              "fused over every adapter's tokens at once: each token block looks up its adapter, one "
                              "base GEMM for the batch",
                              LoraMethod::multi_adapter)})
        c.add_variant("lora", std::move(v));
    register_lora_cuda(c);
}

}  // namespace memwall
