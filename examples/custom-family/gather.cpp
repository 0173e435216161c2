// The gather family: its problem, workload and check, byte model, CPU variant, CUDA kernel, and
// its registration with memwall's catalogue.
#include "gather.hpp"
#include "gather_cuda.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

using namespace memwall;

GatherProblem GatherProblem::from(const Params& p) {
    GatherProblem g;
    g.n = p.integer("n");
    g.m = p.integer("m");
    g.random = p.str("order") == "random";
    if (g.n < 1 || g.m < 1) throw UsageError("gather: n and m must be positive");
    return g;
}

GatherWorkload::GatherWorkload(const GatherProblem& p, std::uint64_t seed) : p_(p) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<float> value(1.0f, 2.0f);
    x_.resize(static_cast<std::size_t>(p.m));
    for (float& e : x_) e = value(gen);
    index_.resize(static_cast<std::size_t>(p.n));
    std::uniform_int_distribution<std::int32_t> row(0, static_cast<std::int32_t>(p.m - 1));
    for (std::size_t i = 0; i < index_.size(); ++i)
        index_[i] = p.random ? row(gen) : static_cast<std::int32_t>(static_cast<std::int64_t>(i) % p.m);
}

Check GatherWorkload::check(const float* y) const {
    Check c;
    for (std::size_t i = 0; i < index_.size(); ++i) {
        if (!(y[i] == x_[static_cast<std::size_t>(index_[i])])) {
            c.message = "y[" + std::to_string(i) + "] is " + std::to_string(y[i]) + ", not x[" +
                        std::to_string(index_[i]) + "]";
            c.error = std::numeric_limits<double>::infinity();
            return c;
        }
    }
    c.ok = true;
    return c;
}

namespace {

void gather_loop(const GatherWorkload& w, float* y, float*) {
    const float* x = w.table().data();
    const std::int32_t* index = w.index().data();
    const std::int64_t n = w.problem().n;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) y[i] = x[index[i]];
}

// Indices read and y written once; the table read once in order, or a line of `line` bytes per
// lookup at random (from the level that holds the table).
std::vector<Counter> gather_model(const Params& point, const MemoryHierarchy& mh, double line) {
    const GatherProblem p = GatherProblem::from(point);
    const double n = static_cast<double>(p.n), table = 4.0 * static_cast<double>(p.m);
    const double inf = std::numeric_limits<double>::infinity();
    const double lookups = p.random ? n * line : std::min(4 * n, table);
    return byte_model(0, 8 * n + std::min(4 * n, table), 0, mh, {{inf, 8 * n}, {table / mh.cpus, lookups}});
}

gather_cuda::Shape shape(const GatherWorkload& w) { return {w.problem().n, w.problem().m}; }

}  // namespace

void register_gather(Catalogue& c) {
    Family f;
    f.name = "gather";
    f.description = "y[i] = x[index[i]]: n lookups into a table of m floats, in order or at random";
    Axis n = int_axis("n", {1 << 20}, "lookups");
    Axis m = int_axis("m", {1 << 16, 1 << 24}, "table entries");
    f.problem_axes = {bounded(n, 1, 1 << 30), bounded(m, 1, 1 << 30),
                      enum_axis("order", {"sequential", "random"}, {"sequential", "random"}, "index order")};
    f.make_workload = [](const Params& p, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<GatherWorkload>(GatherProblem::from(p), seed);
    };
    c.add_family(std::move(f));

    Variant loop;
    loop.name = "loop";
    loop.description = "an OpenMP loop of loads through the index";
    loop.prepare = [](const Workload& wl, const Params&) -> std::unique_ptr<Instance> {
        const auto& w = workload_as<GatherWorkload>(wl);
        return std::make_unique<kit::CpuInstance<GatherWorkload>>(w, static_cast<std::size_t>(w.problem().n), 0,
                                                                  gather_loop, 0, 1);
    };
    loop.model = [](const Params& point, const MemoryHierarchy& mh) { return gather_model(point, mh, 64); };
    c.add_variant("gather", loop);

    kit::CudaKernel k;
    k.name = "thread_per_lookup";
    k.description = "one CUDA thread per lookup";
    k.emu_default_axes = {"n=4096", "m=1024,1048576"};
    k.emu = [](const Workload& wl, const Params&) {
        const auto& w = workload_as<GatherWorkload>(wl);
        return gather_cuda::cuda_emu::make_device_case(shape(w), w.table().data(), w.index().data());
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [](const Workload& wl, const Params&) {
        const auto& w = workload_as<GatherWorkload>(wl);
        return gather_cuda::cuda_gpu::make_device_case(shape(w), w.table().data(), w.index().data());
    };
#endif
    k.check = [](const Workload& w, const float* y) { return workload_as<GatherWorkload>(w).check(y); };
    k.model = [](const Params& point, const MemoryHierarchy& mh) { return gather_model(point, mh, 32); };
    kit::add_cuda_variants(c, "gather", k);
}
