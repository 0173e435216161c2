// attention/flash_blocksparse, the FlashAttention paper's block-sparse attention: the flash kernels
// on a problem with a block mask (cuda/block_mask.hpp), visiting only the key tiles the mask
// keeps. On cpu the flash kernel's tiles; on cuda-emu and cuda flash_tc's (bf16 tensor cores, the
// compiled tiles, no kernel of its own). The mask's axes are this variant's own problem axes, its
// random seed the workload's, so the models follow from the workload (input_model).
#include "core/catalogue.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"

namespace memwall {

namespace {

FlashTiles tiles_of(const Params& point) {
    return {static_cast<int>(point.integer("Br")), static_cast<int>(point.integer("Bc"))};
}

std::vector<Axis> mask_axes() {
    Axis block = int_axis("block", {128}, "query rows and keys per mask block (Br and Bc divide it)");
    Axis window = int_axis("window", {1}, "local: blocks kept on each side of the diagonal; global: global blocks");
    Axis density = real_axis("density", {0.25}, "random: expected share of a row's key blocks kept, in (0, 1]");
    return {
        enum_axis("mask", {"local", "global", "random", "butterfly"}, {"local", "global", "random", "butterfly"},
                  "block pattern; every pattern keeps each query block's diagonal block (seeded for random)"),
        bounded(block, 16, 1 << 16),
        bounded(window, 0, 1 << 24),
        bounded(density, 0, 1),
    };
}

Constraint tiles_nest() {
    return {"Br and Bc divide block (tiles nest in the mask's blocks)", [](const Params& p) {
                return p.integer("block") % p.integer("Br") == 0 && p.integer("block") % p.integer("Bc") == 0;
            }};
}

Variant cpu_variant() {
    Variant v = flash_variant();
    v.name = "flash_blocksparse";
    v.description =
        "block-sparse FlashAttention: flash's tiles (Br query rows, Bc keys, online softmax) over the key tiles a "
        "block mask keeps";
    v.problem_axes = mask_axes();
    v.constraints.push_back(tiles_nest());
    v.constraints.push_back({"dtype is fp32 (the CPU kernels read and write fp32)",
                             [](const Params& p) { return p.str("dtype") == "fp32"; }});
    v.prepare = [flash = v.prepare](const Workload& wl, const Params& point) {
        validate_mask_tiles(workload_as<AttentionWorkload>(wl).problem(), tiles_of(point));
        return flash(wl, point);
    };
    v.model = nullptr;
    v.input_model = [](const Workload& wl, const Params& point, const MemoryHierarchy& mh) {
        return flash_model(workload_as<AttentionWorkload>(wl).problem(), tiles_of(point), mh);
    };
    return v;
}

kit::CudaKernel cuda_kernel() {
    kit::CudaKernel k = flash_tc_kernel();
    k.name = "flash_blocksparse";
    k.description = "block-sparse FlashAttention on flash_tc: " + k.description +
                    "; a block walks only the key tiles its block mask keeps";
    k.problem_axes = mask_axes();
    k.constraints.push_back(tiles_nest());
    // Four 64 x 64 mask blocks a side, so every pattern keeps some and drops others; causal or
    // not; the smallest compiled tile, which nests in them.
    k.emu_default_axes = {"heads=2", "seq_q=256", "seq_k=256", "head_dim=64", "block=64",
                          "Br=64",   "Bc=64",     "warps=4",   "stages=2"};
    k.model = nullptr;
    k.input_model = [](const Workload& wl, const Params& point, const MemoryHierarchy& mh) {
        return flash_tc_model(workload_as<AttentionWorkload>(wl).problem(), tiles_of(point), mh);
    };
    return k;
}

}  // namespace

void register_attention_blocksparse(Catalogue& c) {
    c.add_variant("attention", cpu_variant());
    kit::add_cuda_variants(c, "attention", cuda_kernel());
}

}  // namespace memwall
