// The CUDA attention variants (kernels/attention/cuda) in the catalogue, for cuda-emu (the
// kernels run on the CPU, their global-memory traffic counted) and for cuda (a real GPU): what
// differs between the four kernels; the kit (kit/cuda_variants.hpp) adds the rest.
//
// The dtype axis picks the element type of Q, K, V and O in device memory (fp32 or bf16; the
// kernels compute in fp32 either way): both are swept by default, as nvbench's type axes are.
//
// Counters of a case: the model counters (flops, bytes.min, bytes.<level>) come from the same
// formulas as the CPU variants, with the dtype's element size, so the model places a CUDA case
// by the CPU byte model; workspace.bytes is what the device allocates. cuda-emu adds the
// emulator's traffic counters (source emu) under their CUPTI names: they describe GPU memory
// traffic and are stored beside the model.
#include "kernels/attention/register_cuda.hpp"

#include <limits>

#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/cuda/resources.hpp"
#include "kernels/attention/decode.hpp"
#include "kernels/kit/cuda_variants.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

using attention_cuda::Algorithm;
using attention_cuda::Tuning;

attention_cuda::Inputs inputs_of(const AttentionWorkload& w) { return {w.q().data(), w.k().data(), w.v().data()}; }

Tuning tuning_of(Algorithm a, const Params& point) {
    Tuning t;
    t.algorithm = a;
    if (a == Algorithm::flash || a == Algorithm::flash_tc) {
        t.br = static_cast<int>(point.integer("Br"));
        t.bc = static_cast<int>(point.integer("Bc"));
        t.warps = static_cast<int>(point.integer("warps"));
        if (a == Algorithm::flash_tc) t.stages = static_cast<int>(point.integer("stages"));
    } else if (a == Algorithm::decode_splitkv) {
        t.splits = static_cast<int>(point.integer("num_splits"));
    }
    return t;
}

// The model's workspace.bytes replaced by what the device allocates.
std::vector<Counter> with_device_workspace(std::vector<Counter> cs, const AttentionProblem& p, const Tuning& t) {
    const double bytes = 4.0 * static_cast<double>(attention_cuda::workspace_floats(cuda_shape(p), t));
    for (Counter& c : cs)
        if (c.name == counters::kWorkspace) c.value = bytes;
    return cs;
}

// The kit's description of one algorithm: its device cases on both backends and the check.
kit::CudaKernel kernel_of(Algorithm algorithm, std::string name, std::string description) {
    kit::CudaKernel k;
    k.name = std::move(name);
    k.description = std::move(description);
    k.checked_on_gpu = kit::gpu_runs::kH100_2026_11_27;
    k.emu = [algorithm](const Workload& w, const Params& point) {
        const auto& a = workload_as<AttentionWorkload>(w);
        return attention_cuda::cuda_emu::make_device_case(cuda_shape(a.problem()), tuning_of(algorithm, point),
                                                          inputs_of(a));
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [algorithm](const Workload& w, const Params& point) {
        const auto& a = workload_as<AttentionWorkload>(w);
        return attention_cuda::cuda_gpu::make_device_case(cuda_shape(a.problem()), tuning_of(algorithm, point),
                                                          inputs_of(a));
    };
#endif
    k.check = [](const Workload& w, const float* o) { return workload_as<AttentionWorkload>(w).check(o); };
    k.default_axes = {"dtype=fp32,bf16"};
    // Emulation runs every CUDA thread on the CPU: default problems it finishes in seconds.
    k.emu_default_axes = {"heads=2", "head_dim=64", "seq_q=128,256", "seq_k=128,256"};
    k.constraints = {{"batch * heads is at most 65535 (CUDA grid limit)", [](const Params& p) {
                          return p.integer("batch") * p.integer("heads") <= attention_cuda::kMaxGridYz;
                      }}};
    return k;
}

kit::CudaKernel naive_kernel() {
    kit::CudaKernel k =
        kernel_of(Algorithm::naive, "naive",
                  "three kernels over the score matrix in global memory: S = scale*QK^T, row softmax, O = PV");
    k.model = [](const Params& point, const MemoryHierarchy& mh) {
        const auto p = AttentionProblem::from(point);
        return with_device_workspace(naive_model(p, mh), p, tuning_of(Algorithm::naive, point));
    };
    return k;
}

kit::CudaKernel flash_kernel() {
    kit::CudaKernel k = kernel_of(Algorithm::flash, "flash",
                                  "FlashAttention-2 order: a block per Br query rows, K/V tiles of Bc keys in shared "
                                  "memory, online softmax, Br/warps rows per warp");
    Axis br = tunable(int_axis("Br", {64}, "query rows per block"));
    Axis bc = tunable(int_axis("Bc", {64}, "keys per shared-memory K/V tile"));
    Axis warps = tunable(int_axis("warps", {4}, "warps per block"));
    k.tunables = {bounded(br, 16, 128), bounded(bc, 16, 128), bounded(warps, 1, 32)};
    k.constraints.insert(
        k.constraints.begin(),
        {{"Br and Bc are multiples of 16",
          [](const Params& p) { return p.integer("Br") % 16 == 0 && p.integer("Bc") % 16 == 0; }},
         {"Br is a multiple of warps (each warp owns Br/warps query rows)",
          [](const Params& p) { return p.integer("Br") % p.integer("warps") == 0; }},
         {"the Q, K, V, P tiles and the O accumulator fit in 227 KB of shared memory", [](const Params& p) {
              return attention_cuda::flash_shared_bytes(
                         static_cast<int>(p.integer("Br")), static_cast<int>(p.integer("Bc")),
                         static_cast<int>(p.integer("head_dim"))) <= attention_cuda::kMaxSharedBytes;
          }}});
    k.model = [](const Params& point, const MemoryHierarchy& mh) {
        const auto p = AttentionProblem::from(point);
        const Tuning t = tuning_of(Algorithm::flash, point);
        return with_device_workspace(flash_model(p, {t.br, t.bc}, mh), p, t);
    };
    return k;
}

}  // namespace

// flash_tc: bf16 only, and only the compiled tiles (device_case.hpp's kFlashTcTiles).
kit::CudaKernel flash_tc_kernel() {
    kit::CudaKernel k = kernel_of(
        Algorithm::flash_tc, "flash_tc",
        "FlashAttention-2 on bf16 tensor cores (mma.sync m16n8k16, fp32 accumulators): a block per Br query rows, "
        "16 per warp, K/V tiles of Bc keys through `stages` cp.async buffers in swizzled shared memory, read by "
        "ldmatrix; online softmax and P in registers; bf16 only");
    k.checked_on_gpu = {};
    if (const std::string figures = attention_cuda::flash_tc_resource_summary(); !figures.empty())
        k.description += "; per tile on sm_90 (this build's ptxas; " +
                         std::string(attention_cuda::flash_tc_sm90_resources().evidence) + "): " + figures;
    Axis br = tunable(int_axis("Br", {128}, "query rows per block, 16 per warp"));
    Axis bc = tunable(int_axis("Bc", {64}, "keys per K/V tile"));
    Axis warps = tunable(int_axis("warps", {8}, "warps per block (Br / 16)"));
    Axis stages = tunable(int_axis("stages", {2}, "K/V tiles in flight (cp.async buffers in shared memory)"));
    k.tunables = {bounded(br, 64, 128), bounded(bc, 64, 128), bounded(warps, 4, 8), bounded(stages, 2, 3)};
    k.default_axes = {"dtype=bf16"};
    // Every compiled tile on a sequence length no tile divides, causal or not (s_q < s_k too).
    k.emu_default_axes = {"heads=2",   "seq_q=100,77", "seq_k=100,200", "Br=64,128",
                          "Bc=64,128", "warps=4,8",    "stages=2,3"};
    // A sweep of both dtypes gives flash_tc only its bf16 points, as lora's *_tc variants.
    k.constraints.insert(
        k.constraints.begin(),
        {{"dtype is bf16 (the tensor cores take bf16; fp32 runs on flash)",
          [](const Params& p) { return p.str("dtype") == "bf16"; }},
         {"(head_dim, Br, Bc, warps, stages) is a compiled tile: " + attention_cuda::flash_tc_tile_list(),
          [](const Params& p) {
              return attention_cuda::flash_tc_tile(static_cast<int>(p.integer("head_dim")),
                                                   tuning_of(Algorithm::flash_tc, p)) != nullptr;
          }}});
    k.model = [](const Params& point, const MemoryHierarchy& mh) {
        const Tuning t = tuning_of(Algorithm::flash_tc, point);
        return flash_tc_model(AttentionProblem::from(point), {t.br, t.bc}, mh);
    };
    return k;
}

namespace {

// Decode model (decode_splitkv_model, shared with the CPU variant).
kit::CudaKernel decode_kernel() {
    kit::CudaKernel k = kernel_of(Algorithm::decode_splitkv, "decode_splitkv",
                                  "Flash-Decoding for seq_q = 1: num_splits blocks per head each attend to a key "
                                  "range and write a partial output and log-sum-exp; a second kernel combines them");
    Axis splits = tunable(int_axis("num_splits", {8}, "key ranges per head, one block each"));
    k.tunables = {bounded(splits, 1, 1024)};
    k.default_axes.insert(k.default_axes.begin(), {"seq_q=1", "seq_k=4096"});
    k.emu_default_axes = {"heads=2", "head_dim=64"};
    k.constraints.insert(k.constraints.begin(),
                         {{"seq_q is 1 (decode)", [](const Params& p) { return p.integer("seq_q") == 1; }},
                          {"num_splits is at most seq_k",
                           [](const Params& p) { return p.integer("num_splits") <= p.integer("seq_k"); }}});
    k.model = [](const Params& point, const MemoryHierarchy& mh) {
        return decode_splitkv_model(AttentionProblem::from(point), tuning_of(Algorithm::decode_splitkv, point).splits,
                                    mh);
    };
    return k;
}

}  // namespace

attention_cuda::Shape cuda_shape(const AttentionProblem& p) {
    return {.heads = static_cast<int>(p.heads_total()),
            .seq_q = static_cast<int>(p.seq_q),
            .seq_k = static_cast<int>(p.seq_k),
            .head_dim = static_cast<int>(p.head_dim),
            .causal = p.causal ? 1 : 0,
            .scale = p.scale(),
            .dtype = p.dtype == AttentionDtype::bf16 ? attention_cuda::Dtype::bf16 : attention_cuda::Dtype::fp32,
            .mask = p.mask};
}

void register_attention_cuda(Catalogue& c) {
    for (const kit::CudaKernel& k : {naive_kernel(), flash_kernel(), flash_tc_kernel(), decode_kernel()})
        kit::add_cuda_variants(c, "attention", k);
}

}  // namespace memwall
