// The CUDA kv_offload variants (kernels/kv_offload/cuda) in the catalogue: resident, zero_copy,
// staged and pipelined for cuda-emu (the kernels run on the CPU, their device- and host-memory
// traffic counted) and for cuda (a real GPU). The kit (kit/cuda_variants.hpp) adds the instances;
// models in cuda/traffic_model.hpp.
#include "kernels/kv_offload/register_cuda.hpp"

#include "kernels/kit/cuda_variants.hpp"
#include "kernels/kv_offload/cuda/traffic_model.hpp"

namespace memwall {

namespace {

using kv_cuda::Method;

kit::CudaKernel kernel_of(Method method, std::string name, std::string description) {
    kit::CudaKernel k;
    k.name = std::move(name);
    k.checked_on_gpu = kit::gpu_runs::kH100_2026_11_27;
    k.description = std::move(description) +
                    "; decode attention split over splits x warps partials per head, then a combine; the slow tier "
                    "is host memory (tier and warm are the CPU variants' axes)";
    Axis splits = tunable(int_axis("splits", {8}, "blocks per head (Flash-Decoding's split)"));
    Axis warps = tunable(int_axis("warps", {4}, "warps per block, each a partial over its share of the tokens"));
    k.tunables = {bounded(splits, 1, kv_cuda::kMaxSplits), bounded(warps, 1, 32)};
    k.check = [](const Workload& w, const float* out) { return workload_as<KvWorkload>(w).check(out); };
    k.output_counters = [](const Workload& w, const kit::DeviceCase&) {
        return std::vector<Counter>{reuse_counter(workload_as<KvWorkload>(w).selections())};
    };
    k.model = [method](const Params& point, const MemoryHierarchy&) {
        return kv_cuda_model(KvProblem::from(point), method, kv_cuda_tuning(point));
    };
    // Emulation runs every CUDA thread on the CPU (a fiber each): 16 pages, 4 selected a step.
    k.emu_default_axes = {"context=256", "page_tokens=16", "heads=2", "head_dim=64", "select=0.25", "steps=2"};
    const auto factory = [method](auto make) {
        return [method, make](const Workload& wl, const Params& point) {
            const auto& w = workload_as<KvWorkload>(wl);
            std::vector<std::int32_t> ids;
            const kv_cuda::Inputs in = cuda_inputs(w, ids);
            return make(cuda_shape(w.problem()), method, kv_cuda_tuning(point), in);
        };
    };
    k.emu = factory([](const kv_cuda::Shape& s, Method m, const kv_cuda::Tuning& t, const kv_cuda::Inputs& in) {
        return kv_cuda::cuda_emu::make_device_case(s, m, t, in);
    });
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = factory(kv_cuda::cuda_gpu::make_device_case);
#endif
    return k;
}

kit::CudaKernel zero_copy() {
    kit::CudaKernel k = kernel_of(
        Method::zero_copy, "zero_copy",
        "every page in mapped pinned host memory (cudaHostAlloc); the kernel reads the selected pages over the bus "
        "through the device pointer, each warp request 128 contiguous bytes starting on a 128-byte boundary "
        "(PyTorch-Direct's alignment) unless misalign shifts the pages");
    Axis misalign = tunable(int_axis("misalign", {0},
                                     "bytes the pages are placed past a 128-byte boundary (4, 64: "
                                     "unaligned warp reads)"));
    k.tunables.push_back(bounded(misalign, 0, kv_cuda::kLineBytes - 4));
    k.constraints.push_back({"misalign is a multiple of 4 bytes (a float's alignment)",
                             [](const Params& p) { return p.integer("misalign") % 4 == 0; }});
    return k;
}

kit::CudaKernel pipelined() {
    kit::CudaKernel k = kernel_of(
        Method::pipelined, "pipelined",
        "staged in chunks of chunk_pages pages on two streams: the CPU's gather and the copy of chunk i+1 (copy "
        "stream) overlap the kernel on chunk i (compute stream), events between them");
    Axis chunk = tunable(int_axis("chunk_pages", {4}, "pages per gather, copy and kernel"));
    k.tunables.push_back(bounded(chunk, 1, 1 << 20));
    return k;
}

}  // namespace

kv_cuda::Tuning kv_cuda_tuning(const Params& point) {
    const auto i = [&](const char* name, int otherwise) {
        return point.has(name) ? static_cast<int>(point.integer(name)) : otherwise;
    };
    const kv_cuda::Tuning d;
    return {i("splits", d.splits), i("warps", d.warps), i("misalign", d.misalign), i("chunk_pages", d.chunk_pages)};
}

kv_cuda::Inputs cuda_inputs(const KvWorkload& w, std::vector<std::int32_t>& ids) {
    ids.clear();
    for (const auto& step : w.selections())
        for (std::int64_t page : step) ids.push_back(static_cast<std::int32_t>(page));
    return {w.kv(), w.q(0, 0), ids.data()};
}

void register_kv_offload_cuda(Catalogue& c) {
    for (const kit::CudaKernel& k :
         {kernel_of(Method::resident, "resident",
                    "every page in device memory: the kernel reads the selected ones "
                    "there (the upper bound)"),
          zero_copy(),
          kernel_of(Method::staged, "staged",
                    "per step the CPU gathers the selected pages into a pinned buffer (a host function in stream "
                    "order), one cudaMemcpyAsync brings them to the device, then the kernel; one stream, no overlap"),
          pipelined()})
        kit::add_cuda_variants(c, "kv_offload", k);
}

}  // namespace memwall
