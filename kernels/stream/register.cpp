// The stream family in the catalogue: its axes, workload, CPU variants and CUDA kernel.
#include "kernels/stream/register.hpp"

#include <array>

#include "kernels/kit/cpu_instance.hpp"
#include "kernels/kit/cuda_variants.hpp"
#include "kernels/stream/cuda/device_case.hpp"
#include "kernels/stream/stream.hpp"

namespace memwall {

namespace {

using Kernel = void (*)(const StreamProblem&, const float*, const float*, float*);

// `kernels` holds the avx2 and the avx512 kernel; a case runs the active ISA's.
Variant cpu_variant(std::string name, std::string description, std::array<Kernel, 2> kernels, bool write_allocate) {
    Variant v;
    v.name = std::move(name);
    v.description = std::move(description);
    v.backend = Backend::cpu;
    v.prepare = [kernels](const Workload& wl, const Params&) -> std::unique_ptr<Instance> {
        const Kernel kernel = kernels[active_isa() == Isa::avx512 ? 1 : 0];
        const auto& w = workload_as<StreamWorkload>(wl);
        return std::make_unique<kit::CpuInstance<StreamWorkload>>(
            w, static_cast<std::size_t>(w.problem().n), 0,
            [kernel](const StreamWorkload& x, float* z, float*) { kernel(x.problem(), x.x(), x.y(), z); },
            stream_slot::kZ, stream_slot::kZ + 1);
    };
    v.model = [write_allocate](const Params& point, const MemoryHierarchy& mh) {
        return stream_model(StreamProblem::from(point), mh, write_allocate);
    };
    return v;
}

stream_cuda::Shape cuda_shape(const StreamProblem& p) { return {p.op, p.n, kStreamScalar}; }

kit::CudaKernel grid_stride_kernel() {
    kit::CudaKernel k;
    k.name = "grid_stride";
    k.description = "a grid-stride loop, one element per thread per step, coalesced loads and stores";
    k.checked_on_gpu = kit::gpu_runs::kH100_2026_11_27;
    Axis threads = tunable(int_axis("threads", {256}, "threads per block"));
    k.tunables = {bounded(threads, 32, stream_cuda::kMaxThreads)};
    k.constraints = {
        {"threads is a multiple of 32 (whole warps)", [](const Params& p) { return p.integer("threads") % 32 == 0; }}};
    // Emulation runs every CUDA thread on the CPU: default problems it finishes in seconds.
    k.emu_default_axes = {"n=4096,65536"};
    auto make = [](auto factory) {
        return [factory](const Workload& wl, const Params& point) {
            const auto& w = workload_as<StreamWorkload>(wl);
            return factory(cuda_shape(w.problem()), static_cast<int>(point.integer("threads")), w.x(),
                           w.problem().reads_y() ? w.y() : nullptr);
        };
    };
    k.emu = make(stream_cuda::cuda_emu::make_device_case);
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = make(stream_cuda::cuda_gpu::make_device_case);
#endif
    k.check = [](const Workload& w, const float* z) { return workload_as<StreamWorkload>(w).check(z); };
    // GPU stores allocate in L2 without reading DRAM first: STREAM's count.
    k.model = [](const Params& point, const MemoryHierarchy& mh) {
        return stream_model(StreamProblem::from(point), mh, false);
    };
    return k;
}

}  // namespace

void register_stream(Catalogue& c) {
    Family f;
    f.name = "stream";
    f.description = "STREAM's copy, scale, add and triad over n fp32 elements (z = x, s x, x + y, x + s y)";
    Axis n = int_axis("n", {1 << 16, 1 << 20, 1 << 25}, "elements per array");
    f.problem_axes = {
        enum_axis("op", {"copy", "scale", "add", "triad"}, {"copy", "scale", "add", "triad"}, "the STREAM kernel"),
        bounded(n, 1, static_cast<double>(std::int64_t{1} << 34)),
    };
    f.make_workload = [](const Params& problem, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<StreamWorkload>(StreamProblem::from(problem), seed);
    };
    c.add_family(std::move(f));
    c.add_variant("stream", cpu_variant("loop",
                                        "the loop as written, vectorised by the compiler; ordinary stores "
                                        "(write-allocate: z is read before it is written)",
                                        {stream_loop<Isa::avx2>, stream_loop<Isa::avx512>}, true));
    c.add_variant("stream", cpu_variant("nontemporal",
                                        "vector loads and non-temporal stores: z is written "
                                        "without being read, one contiguous part per thread",
                                        {stream_nontemporal<Isa::avx2>, stream_nontemporal<Isa::avx512>}, false));
    kit::add_cuda_variants(c, "stream", grid_stride_kernel());
}

}  // namespace memwall
