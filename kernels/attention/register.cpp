// The attention family in the catalogue: its axes, workload and CPU variants.
#include "kernels/attention/register.hpp"

#include "core/catalogue.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/decode.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "kernels/kit/cpu_instance.hpp"

namespace memwall {

namespace {

// One prepared case: O (poisoned), the variant's workspace, its kernel.
std::unique_ptr<Instance> instance(const Workload& wl, std::size_t workspace_floats,
                                   kit::CpuInstance<AttentionWorkload>::Kernel kernel) {
    const auto& w = workload_as<AttentionWorkload>(wl);
    return std::make_unique<kit::CpuInstance<AttentionWorkload>>(
        w, w.problem().q_size(), workspace_floats, std::move(kernel), attention_slot::kO, attention_slot::kWorkspace);
}

FlashTiles tiles_of(const Params& point) {
    return {static_cast<int>(point.integer("Br")), static_cast<int>(point.integer("Bc"))};
}

Variant naive_variant() {
    Variant v;
    v.name = "naive";
    v.description = "three passes over the materialised score tensor: S = scale*QK^T, row softmax, O = PV";
    v.backend = Backend::cpu;
    v.prepare = [](const Workload& wl, const Params&) {
        const auto& p = workload_as<AttentionWorkload>(wl).problem();
        return instance(wl, naive_workspace_floats(p), [](const AttentionWorkload& x, float* o, float* ws) {
            attention_naive(x.problem(), x.q().data(), x.k().data(), x.v().data(), o, ws);
        });
    };
    v.model = [](const Params& point, const MemoryHierarchy& mh) {
        return naive_model(AttentionProblem::from(point), mh);
    };
    return v;
}

}  // namespace

Variant flash_variant() {
    Variant v;
    v.name = "flash";
    v.description = "FlashAttention-2 loop order: query tiles of Br rows, key tiles of Bc, online softmax";
    v.backend = Backend::cpu;
    // One default each (Bc: the fastest measured on a 2-core Zen 4, seq 2048 and 4096, d 64 and
    // 128, causal or not; Bc = 128 leads by 10-30% over 32). Br = 128: every query tile streams
    // its head's packed K and V (4 MiB at s = 4096, d = 128: past a core's L2) once, so taller
    // tiles read them less often; on a Xeon of the Sapphire Rapids class (s = 4096, d = 128,
    // 2 threads) Br = 128 over 32 is +23% with AVX-512 and +8% with AVX2, 96 to 256 within 2%.
    // The bounds are the range a tuner searches (e.g. Br=pow2:8:256).
    const int rows = kFlashRowsGranule;
    const int cols = flash_cols_granule();
    Axis br = tunable(int_axis("Br", {128}, "query rows per tile"));
    Axis bc = tunable(int_axis("Bc", {128}, "keys per tile"));
    v.tunables = {bounded(br, rows, 256), bounded(bc, cols, 256)};
    v.constraints = {
        {"Br is a multiple of " + std::to_string(rows) + " (the micro-kernel rows)",
         [rows](const Params& p) { return p.integer("Br") % rows == 0; }},
        {"Bc is a multiple of " + std::to_string(cols) + " (the vector width)",
         [cols](const Params& p) { return p.integer("Bc") % cols == 0; }},
    };
    v.prepare = [](const Workload& wl, const Params& point) {
        const FlashTiles t = tiles_of(point);
        validate_tiles(t);
        const auto& p = workload_as<AttentionWorkload>(wl).problem();
        return instance(wl, flash_workspace_floats(p, t), [t](const AttentionWorkload& x, float* o, float* ws) {
            attention_flash(x.problem(), t, x.q().data(), x.k().data(), x.v().data(), o, ws);
        });
    };
    v.model = [](const Params& point, const MemoryHierarchy& mh) {
        return flash_model(AttentionProblem::from(point), tiles_of(point), mh);
    };
    return v;
}

void register_attention(Catalogue& c) {
    Family f;
    f.name = "attention";
    f.description = "softmax(QK^T/sqrt(d)) V per head, fp32 or bf16; causal masks bottom-right aligned";
    Axis head_dim = int_axis("head_dim", {64, 128}, "head dimension d");
    head_dim.choices = {"64", "128"};
    f.problem_axes = {
        bounded(int_axis("batch", {1}, "batch size b"), 1, 1 << 16),
        bounded(int_axis("heads", {8}, "heads h"), 1, 1 << 16),
        bounded(int_axis("seq_q", {512, 1024, 2048}, "query length s_q"), 1, 1 << 24),
        bounded(int_axis("seq_k", {512, 1024, 2048}, "key and value length s_k"), 1, 1 << 24),
        head_dim,
        bool_axis("causal", {false, true}, "causal mask (query i sees keys j <= i + s_k - s_q)"),
        enum_axis("dtype", {"fp32", "bf16"}, {"fp32"},
                  "element type of Q, K, V and O (arithmetic is fp32); bf16 on the CUDA backends"),
    };
    f.zipped = {{"seq_q", "seq_k"}};
    f.constraints = {
        {"batch, heads, seq_q and seq_k are positive",
         [](const Params& p) {
             return p.integer("batch") > 0 && p.integer("heads") > 0 && p.integer("seq_q") > 0 &&
                    p.integer("seq_k") > 0;
         }},
        {"head_dim is 64 or 128",
         [](const Params& p) { return p.integer("head_dim") == 64 || p.integer("head_dim") == 128; }},
    };
    // A family has one validator, so it checks every variant's own axes where the point has them,
    // one line each: AttentionProblem::from flash_blocksparse's mask (density in (0, 1], ...) and
    // the outliers, validate_decode_axes topk_sparse's label_channels and sparsity.
    f.validate = [](const Params& p) {
        (void)AttentionProblem::from(p);
        validate_decode_axes(p);
    };
    f.make_workload = [](const Params& problem, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<AttentionWorkload>(AttentionProblem::from(problem), seed);
    };
    c.add_family(std::move(f));
    for (Variant v : {naive_variant(), flash_variant()}) {
        v.constraints.push_back({"dtype is fp32 (the CPU kernels read and write fp32)",
                                 [](const Params& p) { return p.str("dtype") == "fp32"; }});
        c.add_variant("attention", std::move(v));
    }
    register_attention_cuda(c);
    register_attention_blocksparse(c);
    register_attention_decode(c);
}

}  // namespace memwall
