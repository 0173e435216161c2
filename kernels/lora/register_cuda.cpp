// The CUDA lora variants (kernels/lora/cuda) in the catalogue: base, unfused, fused and
// multi_adapter and their bf16 tensor-core versions base_tc, unfused_tc, fused_tc and
// multi_adapter_tc for cuda-emu (the kernels run on the CPU, their global-memory traffic and
// tensor FLOPs counted) and for cuda (a real GPU); the peer cublas_unfused (cuBLAS) for cuda only. The kit
// (kit/cuda_variants.hpp) adds the instances; models in cuda/traffic_model.hpp.
#include "kernels/lora/register_cuda.hpp"

#include <bit>
#include <cstdint>
#include <vector>

#include "kernels/kit/cuda_variants.hpp"
#include "kernels/kit/register_tiling_constraints.hpp"
#include "kernels/lora/cuda/tc_resources.hpp"
#include "kernels/lora/cuda/traffic_model.hpp"

namespace memwall {

namespace {

using lora_cuda::Method;

// The model with the FLOPs cuBLAS does on bf16 tensor cores (all of cublas_unfused's GEMMs in
// bf16), so the roofline bounds them by that unit's roof.
std::vector<Counter> with_tensor_flops(std::vector<Counter> model, double flops) {
    model.push_back({std::string(counters::kFlopsBf16Tensor), flops, "FLOP", CounterSource::model});
    return model;
}

// What every CUDA lora kernel shares: the check (base against X·W alone), the model, and
// emulation's default problems.
kit::CudaKernel kernel_of(Method method, std::string name, std::string description) {
    kit::CudaKernel k;
    k.name = std::move(name);
    k.description = std::move(description);
    k.checked_on_gpu = kit::gpu_runs::kH100_2026_11_27;
    k.check = [method](const Workload& w, const float* y) {
        return check_cuda_output(workload_as<LoraWorkload>(w), y, method == Method::base);
    };
    k.model = [method](const Params& point, const MemoryHierarchy&) {
        return lora_cuda_model(LoraProblem::from(point), method,
                               method == Method::cublas_unfused ? lora_cuda::Tuning{} : cuda_tuning(point));
    };
    // Emulation runs every CUDA thread on the CPU (a fiber each): GEMMs it finishes in seconds.
    k.emu_default_axes = {"shape=custom", "M=64", "K=128", "N=128", "r=16", "adapters=1,3", "dtype=fp32,bf16"};
    return k;
}

// BM, BN, BK, TM and TN, with the rules validate() enforces, so the tuner never proposes a
// tiling the device case would refuse.
void add_gemm_tunables(kit::CudaKernel& k) {
    Axis bm = tunable(int_axis("BM", {64}, "rows (tokens) of Y per block tile"));
    Axis bn = tunable(int_axis("BN", {64}, "columns of Y per block tile"));
    Axis bk = tunable(int_axis("BK", {8}, "depth of a shared-memory stage (of K, and of r in the epilogue)"));
    Axis tm = tunable(int_axis("TM", {4}, "rows per thread (1, 2, 4 or 8)"));
    Axis tn = tunable(int_axis("TN", {4}, "columns per thread (1, 2, 4 or 8)"));
    k.tunables = {bounded(bm, 8, 256), bounded(bn, 8, 256), bounded(bk, 2, 64), bounded(tm, 1, 8), bounded(tn, 1, 8)};
    const auto tiles_fit = [](const Params& p) {
        return lora_cuda::gemm_shared_bytes(cuda_tuning(p)) <= lora_cuda::kMaxSharedBytes;
    };
    k.constraints = kit::register_tiling_constraints();
    k.constraints.push_back({"the tiles fit in 48 KiB of shared memory", tiles_fit});
}

// multi_adapter's adapter grouping (the CPU variant's axis of the same name).
Axis group_tunable() {
    Axis group = tunable(int_axis("group", {8}, "adapters per batched call (one down-projection and one GEMM each)"));
    return bounded(group, 1, 1024);
}

kit::CudaKernel emulatable(Method method, std::string name, std::string description) {
    kit::CudaKernel k = kernel_of(method, std::move(name), std::move(description));
    add_gemm_tunables(k);
    if (method == Method::multi_adapter) k.tunables.push_back(group_tunable());
    k.emu = [method](const Workload& wl, const Params& point) {
        const auto& w = workload_as<LoraWorkload>(wl);
        return lora_cuda::cuda_emu::make_device_case(cuda_shape(w.problem()), method, cuda_tuning(point),
                                                     cuda_inputs(w));
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [method](const Workload& wl, const Params& point) {
        const auto& w = workload_as<LoraWorkload>(wl);
        return lora_cuda::cuda_gpu::make_device_case(cuda_shape(w.problem()), method, cuda_tuning(point),
                                                     cuda_inputs(w));
    };
#endif
    return k;
}

kit::CudaKernel cublas_unfused_kernel() {
    kit::CudaKernel k = kernel_of(Method::cublas_unfused, "cublas_unfused",
                                  "the peer: unfused's passes with cuBLAS for the base, down- and up-projection GEMMs "
                                  "(fp32: cublasSgemm, CUBLAS_DEFAULT_MATH, FP32 FMA, no TF32; bf16: cublasGemmEx with "
                                  "float accumulation, tensor cores), memwall's dropout and scaled add between them");
    k.model = [](const Params& point, const MemoryHierarchy&) {
        const LoraProblem p = LoraProblem::from(point);
        std::vector<Counter> model = lora_cuda_model(p, Method::cublas_unfused, lora_cuda::Tuning{});
        return p.dtype == LoraDtype::bf16 ? with_tensor_flops(std::move(model), p.flops()) : model;
    };
    k.gpu_only_reason = "calls cuBLAS (cublasSgemm, cublasGemmEx), which cuda-emu cannot run";
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [](const Workload& wl, const Params&) {
        const auto& w = workload_as<LoraWorkload>(wl);
        return lora_cuda::cuda_gpu::make_cublas_unfused_case(cuda_shape(w.problem()), cuda_inputs(w));
    };
#endif
    return k;
}

// A bf16 tensor-core version of a method (lora_tc.cu), on cuda-emu and cuda: the compiled tiles
// of gemm_tc.cuh only (device_case.hpp's kTcTiles).
kit::CudaKernel tensor_core_kernel(Method method, std::string name, std::string description) {
    kit::CudaKernel k = kernel_of(method, std::move(name),
                                  std::move(description) +
                                      "; bf16 only, GEMMs on tensor cores (mma.sync m16n8k16, fp32 accumulators, "
                                      "BM x BN tiles of `warps` warps, 32-deep stages through `stages` cp.async "
                                      "buffers in swizzled shared memory, read by ldmatrix)");
    k.checked_on_gpu = {};
    if (const std::string figures = lora_cuda::gemm_tc_resource_summary(); !figures.empty())
        k.description += "; per BM/BN/warps/stages on sm_90 (this build's ptxas; " +
                         std::string(lora_cuda::gemm_tc_sm90_resources().evidence) + "): " + figures;
    Axis bm = tunable(int_axis("BM", {128}, "rows (tokens) of Y per block tile"));
    Axis bn = tunable(int_axis("BN", {128}, "columns of Y per block tile"));
    Axis warps = tunable(int_axis("warps", {8}, "warps per block, in 2 rows"));
    Axis stages = tunable(int_axis("stages", {3}, "32-deep stages in flight (cp.async buffers in shared memory)"));
    k.tunables = {bounded(bm, 64, 128), bounded(bn, 64, 256), bounded(warps, 4, 8), bounded(stages, 3, 4)};
    if (method == Method::multi_adapter) k.tunables.push_back(group_tunable());
    k.default_axes = {"dtype=bf16"};
    // Every compiled tile, on sizes no tile divides, one adapter and three.
    k.emu_default_axes = {"shape=custom", "M=100",     "K=72",          "N=136",     "r=16",      "adapters=1,3",
                          "dtype=bf16",   "BM=64,128", "BN=64,128,256", "warps=4,8", "stages=3,4"};
    // A sweep of both dtypes (as `compare` asks) gives these only their bf16 points, as nvbench
    // skips the type combinations a benchmark does not take; likewise the sizes and tiles.
    k.constraints = {
        {"dtype is bf16 (the tensor cores take bf16; fp32 runs on the FMA variants)",
         [](const Params& p) { return p.str("dtype") == "bf16"; }},
        {"K, N and r are multiples of 8 (rows of whole 16-byte cp.async chunks), r at most 64",
         [](const Params& p) {
             return p.integer("K") % 8 == 0 && p.integer("N") % 8 == 0 && p.integer("r") % 8 == 0 &&
                    p.integer("r") <= lora_cuda::kTcMaxRank;
         }},
        {"(BM, BN, warps, stages) is a compiled tile: " + lora_cuda::tc_tile_list(),
         [](const Params& p) {
             const lora_cuda::TcTile t = tc_tuning(p).tile;
             return lora_cuda::tc_tile(t.bm, t.bn, t.warps, t.stages) != nullptr;
         }},
    };
    k.model = [method](const Params& point, const MemoryHierarchy&) {
        return lora_tc_model(LoraProblem::from(point), method, tc_tuning(point));
    };
    k.emu = [method](const Workload& wl, const Params& point) {
        const auto& w = workload_as<LoraWorkload>(wl);
        return lora_cuda::cuda_emu::make_tensor_core_case(cuda_shape(w.problem()), method, tc_tuning(point),
                                                          cuda_inputs(w));
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [method](const Workload& wl, const Params& point) {
        const auto& w = workload_as<LoraWorkload>(wl);
        return lora_cuda::cuda_gpu::make_tensor_core_case(cuda_shape(w.problem()), method, tc_tuning(point),
                                                          cuda_inputs(w));
    };
#endif
    return k;
}

}  // namespace

lora_cuda::Tuning cuda_tuning(const Params& point) {
    const auto i = [&](const char* name) { return static_cast<int>(point.integer(name)); };
    lora_cuda::Tuning t{i("BM"), i("BN"), i("BK"), i("TM"), i("TN")};
    if (point.has("group")) t.group = i("group");
    return t;
}

lora_cuda::TcTuning tc_tuning(const Params& point) {
    const auto i = [&](const char* name) { return static_cast<int>(point.integer(name)); };
    lora_cuda::TcTuning t;
    t.tile = {i("BM"), i("BN"), i("warps"), i("stages")};
    if (point.has("group")) t.group = i("group");
    return t;
}

lora_cuda::Inputs cuda_inputs(const LoraWorkload& w) {
    return {w.x(), w.w(), w.a(0), w.b(0), w.mask(), w.adapter_of()};
}

Check check_cuda_output(const LoraWorkload& w, const float* y, bool base_only) {
    if (w.problem().dtype == LoraDtype::fp32) return w.check(y, base_only);
    // A bf16 Y came down widened to floats: their upper halves are its bits, exactly.
    const auto count = static_cast<std::size_t>(w.problem().m * w.problem().n);
    std::vector<std::uint16_t> bits(count);
    for (std::size_t i = 0; i < count; ++i)
        bits[i] = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(y[i]) >> 16);
    return w.check(bits.data(), base_only);
}

void register_lora_cuda(Catalogue& c) {
    for (const kit::CudaKernel& k :
         {emulatable(Method::base, "base", "memwall's tiled GEMM alone, Y = X·W: the floor"),
          emulatable(
              Method::unfused, "unfused",
              "PyTorch's LoRA as separate passes of memwall's kernels: base GEMM, dropout writing X', "
              "down-projection X'·A_a and up-projection S·B_a per adapter (the tiled GEMM), scaled add Y += α·T"),
          emulatable(Method::fused, "fused",
                     "LoRAFusion's fusion, one call per adapter: S = α/(1-p)(mask⊙X)·A_a with dropout applied as X is "
                     "read, then the tiled GEMM Y = X·W adding S·B_a to each tile's accumulators before its single "
                     "store"),
          emulatable(Method::multi_adapter, "multi_adapter",
                     "fused over every token at once: each token (down-projection) and each tile row (the GEMM's "
                     "epilogue) looks up its adapter; one down-projection and one GEMM launch for the batch"),
          tensor_core_kernel(Method::base, "base_tc", "base's GEMM on tensor cores: the floor of the *_tc variants"),
          tensor_core_kernel(Method::unfused, "unfused_tc",
                             "unfused's passes (base GEMM, dropout writing X', S = X'·A_a, T = S·B_a, Y += α·T) with "
                             "every GEMM on tensor cores: PyTorch's LoRA on base_tc's GEMM"),
          tensor_core_kernel(Method::fused, "fused_tc",
                             "fused on tensor cores: the down-projection S = α/(1-p)(mask⊙X)·A_a (mma.sync, the "
                             "dropout mask applied to X's fragments in registers), then the GEMM adding S·B_a as "
                             "more stages of the same accumulators before its single store"),
          tensor_core_kernel(Method::multi_adapter, "multi_adapter_tc",
                             "multi_adapter with its GEMM on tensor cores: one down-projection and one GEMM per group "
                             "of adapters, each token and each tile (per adapter its rows span) looking up its "
                             "adapter"),
          cublas_unfused_kernel()})
        kit::add_cuda_variants(c, "lora", k);
}

}  // namespace memwall
