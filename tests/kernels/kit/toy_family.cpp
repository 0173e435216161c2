#include "toy_family.hpp"

#include "scale.hpp"

namespace memwall::kit_test {

Check ScaleWorkload::check(const float* out) const {
    Check c;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (!(out[i] == 2 * in[i])) {
            c.message = "element " + std::to_string(i) + " is wrong";
            return c;
        }
    c.ok = true;
    return c;
}

Family toy_family() {
    Family f;
    f.name = "toy";
    f.problem_axes = {int_axis("n", {1000}, "elements"), bool_axis("bf16", {false}, "bf16 elements")};
    f.make_workload = [](const Params& p, std::uint64_t) {
        auto w = std::make_unique<ScaleWorkload>();
        for (std::int64_t i = 0; i < p.integer("n"); ++i) w->in.push_back(0.5f + static_cast<float>(i % 7));
        return w;
    };
    return f;
}

kit::CudaKernel scale_kernel() {
    kit::CudaKernel k;
    k.name = "scale";
    k.description = "out = 2 in";
    k.emu = [](const Workload& w, const Params& p) {
        return cuda_emu::make_scale_case(workload_as<ScaleWorkload>(w).in, p.integer("bf16") != 0);
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [](const Workload& w, const Params& p) {
        return cuda_gpu::make_scale_case(workload_as<ScaleWorkload>(w).in, p.integer("bf16") != 0);
    };
#endif
    k.check = [](const Workload& w, const float* out) { return workload_as<ScaleWorkload>(w).check(out); };
    k.model = [](const Params&, const MemoryHierarchy&) { return std::vector<Counter>{}; };
    return k;
}

Catalogue toy_catalogue(const std::string& gpu_only_reason) {
    Catalogue c;
    c.add_family(toy_family());
    kit::CudaKernel k = scale_kernel();
    k.gpu_only_reason = gpu_only_reason;
    kit::add_cuda_variants(c, "toy", k);
    return c;
}

}  // namespace memwall::kit_test
