// The spgemm family in the catalogue: its axes and presets, the workload, and the CPU variants
// (gustavson_dense, rowwise_hash, esc; the peers graphblas_hash and graphblas_gustavson); the
// CUDA variants are register_cuda.cpp's.
#include "kernels/spgemm/register.hpp"

#include <omp.h>

#include "kernels/kit/phase_times.hpp"
#include "kernels/spgemm/cpu_graphblas.hpp"
#include "kernels/spgemm/cpu_kernels.hpp"
#include "kernels/spgemm/models.hpp"
#include "kernels/spgemm/register_cuda.hpp"
#include "kernels/spgemm/spgemm.hpp"

namespace memwall {

namespace {

using spgemm_cpu::Tuning;

// A case of memwall's CPU kernels: symbolic and numeric timed apart in every run; their medians
// over the timed runs are stored (phase.symbolic.seconds, phase.numeric.seconds).
class PhasedInstance final : public Instance {
  public:
    PhasedInstance(const SpgemmWorkload& w, std::unique_ptr<spgemm_cpu::Kernel> k) : w_(w), k_(std::move(k)) {}
    void poison() override { out_.poison(); }
    void run() override { (void)run_timed(); }
    double run_timed() override {
        phases_.start();
        k_->symbolic(out_);
        const double symbolic = phases_.lap("symbolic");
        k_->numeric(out_);
        return symbolic + phases_.lap("numeric");
    }
    Check check() const override { return w_.check(out_.c); }
    std::string detail() const override { return k_->detail(); }
    std::vector<Counter> sampled_counters() const override { return phases_.counters(); }

  private:
    const SpgemmWorkload& w_;
    std::unique_ptr<spgemm_cpu::Kernel> k_;
    SpgemmOutput out_;
    kit::PhaseTimes phases_;
};

class GraphblasInstance final : public Instance {
  public:
    GraphblasInstance(const SpgemmWorkload& w, spgemm_cpu::GraphblasMethod m) : w_(w), g_(w, m) {}
    // GraphBLAS allocates C in each run: nothing of it outlives a run to poison; the check reads
    // the product of the last run, extracted after it.
    void poison() override { out_.poison(); }
    void run() override {
        g_.multiply();
        out_.c = g_.result();
    }
    double run_timed() override { return g_.multiply(); }
    Check check() const override { return w_.check(out_.c); }
    std::string detail() const override { return g_.detail(); }

  private:
    const SpgemmWorkload& w_;
    spgemm_cpu::GraphblasProduct g_;
    SpgemmOutput out_;
};

Tuning tuning_of(const Params& p) {
    Tuning t;
    if (p.has("rows_per_chunk")) t.rows_per_chunk = p.integer("rows_per_chunk");
    if (p.has("table_factor")) t.table_factor = p.real("table_factor");
    if (p.has("bin_min")) t.bin_min = p.integer("bin_min");
    if (p.has("bins")) t.bins = p.integer("bins");
    return t;
}

Axis rows_per_chunk_axis() {
    return bounded(
        tunable(int_axis("rows_per_chunk", {Tuning{}.rows_per_chunk},
                         "most rows in one range of OpenMP's dynamic schedule (ranges are cut by products)")),
        1, 1 << 20);
}

using Factory = std::unique_ptr<spgemm_cpu::Kernel> (*)(const SpgemmWorkload&, const Tuning&);

Variant phased_variant(std::string name, std::string description, Factory make, SpgemmMethod method,
                       std::vector<Axis> tunables) {
    Variant v;
    v.name = std::move(name);
    v.description = std::move(description);
    v.backend = Backend::cpu;
    v.tunables = std::move(tunables);
    v.prepare = [make](const Workload& wl, const Params& point) -> std::unique_ptr<Instance> {
        const auto& w = workload_as<SpgemmWorkload>(wl);
        return std::make_unique<PhasedInstance>(w, make(w, tuning_of(point)));
    };
    v.input_model = [method](const Workload& wl, const Params& point, const MemoryHierarchy& mh) {
        return spgemm_model(method, workload_as<SpgemmWorkload>(wl), tuning_of(point), mh, omp_get_max_threads());
    };
    return v;
}

Variant graphblas_variant(std::string name, spgemm_cpu::GraphblasMethod m, SpgemmMethod model) {
    Variant v;
    v.name = std::move(name);
    v.description =
        std::string("peer: SuiteSparse:GraphBLAS GrB_mxm (PLUS_TIMES, FP64) with ") +
        (m == spgemm_cpu::GraphblasMethod::hash ? "GxB_AxB_HASH" : "GxB_AxB_GUSTAVSON") +
        "; one phase (no symbolic/numeric split); rows left as GrB_mxm leaves them (jumbled) unless sorted=1, "
        "which times GrB_wait's sort as well; modelled as memwall's method of the same accumulator";
    v.backend = Backend::cpu;
    v.prepare = [m](const Workload& wl, const Params&) -> std::unique_ptr<Instance> {
        return std::make_unique<GraphblasInstance>(workload_as<SpgemmWorkload>(wl), m);
    };
    v.input_model = [model](const Workload& wl, const Params& point, const MemoryHierarchy& mh) {
        return spgemm_model(model, workload_as<SpgemmWorkload>(wl), tuning_of(point), mh, omp_get_max_threads());
    };
    return v;
}

std::vector<Variant> cpu_variants() {
    Axis factor =
        bounded(tunable(real_axis("table_factor", {Tuning{}.table_factor},
                                  "hash table slots per bound on a row's entries (rounded up to a power of two)")),
                1, 16);
    Axis bin_min =
        bounded(tunable(int_axis("bin_min", {Tuning{}.bin_min}, "products bound of the first bin")), 1, 1 << 16);
    Axis bins = bounded(
        tunable(int_axis("bins", {Tuning{}.bins}, "bins (bound doubling from bin_min; the last unbounded)")), 1, 16);
    return {
        phased_variant(
            "gustavson_dense",
            "Gustavson row by row with a dense accumulator per thread (value and stamp per column of B); rows "
            "unsorted unless sorted=1",
            spgemm_cpu::make_gustavson_dense, SpgemmMethod::dense, {rows_per_chunk_axis()}),
        phased_variant("rowwise_hash",
                       "SMASH row-wise product: rows binned by products, hash tables sized to the bin, linear probing "
                       "from (col*107)&(size-1), products merged as generated; rows unsorted unless sorted=1",
                       spgemm_cpu::make_rowwise_hash, SpgemmMethod::hash,
                       {rows_per_chunk_axis(), factor, bin_min, bins}),
        phased_variant("esc", "expand a row's products, sort them by column, compress equal columns; rows sorted",
                       spgemm_cpu::make_esc, SpgemmMethod::esc, {rows_per_chunk_axis()}),
        graphblas_variant("graphblas_hash", spgemm_cpu::GraphblasMethod::hash, SpgemmMethod::hash),
        graphblas_variant("graphblas_gustavson", spgemm_cpu::GraphblasMethod::gustavson, SpgemmMethod::dense),
    };
}

}  // namespace

void register_spgemm(Catalogue& c) {
    Family f;
    f.name = "spgemm";
    f.description =
        "sparse matrix times sparse matrix, C = A*B in CSR (fp64 values, int32 columns); FLOPs = 2 x "
        "intermediate products";
    f.problem_axes = spgemm_axes();
    f.presets = spgemm_presets();
    f.validate = spgemm_validate;
    f.make_workload = [](const Params& problem, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<SpgemmWorkload>(SpgemmProblem::from(problem), seed);
    };
    c.add_family(std::move(f));
    for (Variant v : cpu_variants()) c.add_variant("spgemm", std::move(v));
    register_spgemm_cuda(c);
}

}  // namespace memwall
