// The CUDA spgemm variants (kernels/spgemm/cuda) in the catalogue: rowwise_hash and esc for
// cuda-emu (the kernels run on the CPU, their global-memory traffic counted) and for cuda (a
// real GPU); the peer cusparse (cusparseSpGEMM) for cuda only. The kit (kit/cuda_variants.hpp)
// adds the instances; C is a CSR matrix, so the check downloads it from the device case
// (check_case), and the models follow from the workload's products (input_model).
#include "kernels/spgemm/register_cuda.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/kit/cuda_variants.hpp"
#include "kernels/kit/emu_hierarchy.hpp"
#include "kernels/spgemm/models.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

using spgemm_cuda::Algorithm;
namespace binning = spgemm_cuda::binning;

constexpr double kInf = std::numeric_limits<double>::infinity();

double d(std::int64_t x) { return static_cast<double>(x); }

// Device CSR bytes: int32 row pointers and columns, fp64 values.
double csr_bytes(std::int64_t rows, std::int64_t nnz) { return 4.0 * d(rows + 1) + 12.0 * d(nnz); }

// Bytes the threads of each kernel request, by what they touch.
struct Traffic {
    double b = 0;            // B's row pointers, columns and values, re-read per product
    double tables = 0;       // global hash tables (fallback rows) or esc's buffers
    double other = 0;        // A, C, and the row-sized arrays
    double table_bytes = 0;  // their size
    double workspace = 0;
};

Traffic hash_traffic(const SpgemmWorkload& w, const spgemm_cuda::Tuning& t, bool sorted) {
    const CsrMatrix& a = w.a();
    const std::int64_t cols = w.b().cols;
    const auto& prod = w.row_products();
    const double rows = d(a.rows), nnz_a = d(a.nnz()), nnz_c = d(w.stats().nnz_c);
    Traffic x;
    // Binning: A's rows and columns, B's row pointers; products and bins written and read.
    x.other += rows * (8 + 4 + 4 + 4) + 4 * nnz_a;
    x.b += 8 * nnz_a;
    for (std::size_t i = 0; i < prod.size(); ++i) {
        const std::int64_t p = prod[i];
        if (p == 0) continue;
        const double entries_a = d(a.row_ptr[i + 1] - a.row_ptr[i]);
        const bool global = binning::falls_back(p, cols, t.table_factor, t.bin_min, t.bins);
        const int bin = binning::bin_of(p, t.bin_min, t.bins);
        const double team = !global && binning::rows_per_block(bin, cols, t) > 1 ? t.threads_per_row : 32;
        // Each phase: the row's bookkeeping, A's entries per team lane, B's rows per product.
        x.other += 2 * (4 + 8) + 4 + 4 + team * entries_a * (4 + 4 + 8);
        x.b += team * entries_a * 2 * 8 + d(p) * (4 + 4 + 8);
        if (global) {
            const double slots = d(binning::table_slots(std::min(p, cols), t.table_factor));
            // Init (keys; keys and values), a CAS per product in each phase and an add in the
            // numeric one, the table read back; the row's products and offset read.
            x.tables += 4 * slots + 12 * slots + 2 * 4 * d(p) + 8 * d(p) + 12 * slots + 2 * 12;
            x.table_bytes += 12 * slots;
        }
    }
    (void)sorted;                      // rank counting reads shared memory; a fallback row's sort is in C (below)
    x.other += 8 * rows + 12 * nnz_c;  // the scan, C written
    x.workspace = 4 * rows * 4 + 8 * rows + x.table_bytes;
    return x;
}

Traffic esc_traffic(const SpgemmWorkload& w) {
    const CsrMatrix& a = w.a();
    const auto& prod = w.row_products();
    const double rows = d(a.rows), nnz_a = d(a.nnz()), nnz_c = d(w.stats().nnz_c), products = d(w.stats().products);
    Traffic x;
    x.other += rows * (8 + 4) + 4 * nnz_a + 8 * rows;  // products, their scan
    x.b += 8 * nnz_a;
    x.other += rows * (8 + 4) + nnz_a * (4 + 8);  // expand: A
    x.b += 8 * nnz_a + 12 * products;             //         B's rows
    x.tables += 12 * products;                    //         written
    for (const std::int64_t p : prod) {           // sort: shared or global
        if (p <= spgemm_cuda::kEscSharedElements) {
            x.tables += 12 * d(p);
        } else {
            double stages = 0;
            for (std::int64_t n = 2; n / 2 < p; n *= 2) stages += std::log2(d(n));
            x.tables += 24.0 * d(p) * stages / 2;
        }
    }
    x.other += 8 * rows + 4 * rows + 8 * rows;  // bounds, counts, scan
    x.tables += 12 * nnz_c + 12 * nnz_c;        // compressed, read back
    x.other += 12 * rows + 12 * nnz_c;          // copy to C
    x.table_bytes = 24 * products;
    x.workspace = 4 * rows * 3 + x.table_bytes;
    return x;
}

double tunable_or(const Params& p, const char* name, double fallback) {
    if (!p.has(name)) return fallback;
    return std::string(name) == "table_factor" ? p.real(name) : static_cast<double>(p.integer(name));
}

bool power_of_two(std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// What every CUDA spgemm kernel shares: the check of C, the model, emulation's default problems,
// and a forward pass that waits on the host: C's size is known only once a pass has counted it,
// so the host reads it back to size the output, as GPU libraries do.
kit::CudaKernel kernel_of(Algorithm algorithm, std::string name, std::string description) {
    kit::CudaKernel k;
    k.name = std::move(name);
    k.description = std::move(description);
    k.checked_on_gpu = kit::gpu_runs::kH100_2026_11_27;
    k.waits_on_host = true;
    k.check_case = [](const Workload& w, const kit::DeviceCase& device) {
        const auto* c = dynamic_cast<const spgemm_cuda::SpgemmCase*>(&device);
        if (!c) throw std::logic_error("spgemm: checked a device case of another family");
        return workload_as<SpgemmWorkload>(w).check(c->download_csr());
    };
    k.input_model = [algorithm](const Workload& w, const Params& point, const MemoryHierarchy&) {
        return spgemm_cuda_model(algorithm, workload_as<SpgemmWorkload>(w), spgemm_cuda_tuning(algorithm, point));
    };
    // Emulation runs every CUDA thread on the CPU: 128 R-MAT rows, a 5^3 Poisson grid.
    k.emu_default_axes = {"scale=7", "nx=5"};
    return k;
}

Axis threads_axis() {
    return bounded(tunable(int_axis("threads", {256}, "threads per block (a multiple of 32)")), 32,
                   spgemm_cuda::kMaxThreads);
}

Constraint whole_warps() {
    return {"threads is a multiple of 32 (whole warps)",
            [](const Params& p) { return p.integer("threads") % 32 == 0; }};
}

kit::CudaKernel emulatable(Algorithm algorithm, std::string name, std::string description) {
    kit::CudaKernel k = kernel_of(algorithm, std::move(name), std::move(description));
    k.emu = [algorithm](const Workload& wl, const Params& point) {
        const auto& w = workload_as<SpgemmWorkload>(wl);
        return spgemm_cuda::cuda_emu::make_device_case(w.a(), w.b(), w.problem().sorted,
                                                       spgemm_cuda_tuning(algorithm, point));
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [algorithm](const Workload& wl, const Params& point) {
        const auto& w = workload_as<SpgemmWorkload>(wl);
        return spgemm_cuda::cuda_gpu::make_device_case(w.a(), w.b(), w.problem().sorted,
                                                       spgemm_cuda_tuning(algorithm, point));
    };
#endif
    return k;
}

kit::CudaKernel rowwise_hash_kernel() {
    kit::CudaKernel k = emulatable(
        Algorithm::rowwise_hash, "rowwise_hash",
        "OpSparse's hash SpGEMM: rows binned by products (bin j: <= bin_min*2^j); small rows share a block, "
        "threads_per_row per row, larger ones a block each; hash tables in shared memory sized to the bin "
        "(table_factor x its bound, a power of two, at most 2048 slots), (col*107)&(size-1), linear probing, "
        "atomicCAS; a row that would fill its table to 80% uses a global-memory table; symbolic (keys), device "
        "scan, numeric (keys and values); sorted=1 ranks entries by counting. The case's message has the rows "
        "per bin and the rows that fell back");
    const Axis factor = bounded(tunable(real_axis("table_factor", {1.5},
                                                  "hash table slots per bound on a row's entries "
                                                  "(rounded up to a power of two)")),
                                1, 16);
    const Axis tpr =
        bounded(tunable(int_axis("threads_per_row", {8}, "threads of a small row's group (4, 8, 16 or 32)")), 4, 32);
    const Axis bin_min = bounded(tunable(int_axis("bin_min", {32}, "products bound of the first bin")), 1, 1 << 16);
    const Axis bins = bounded(tunable(int_axis("bins", {8}, "bins (bound doubling from bin_min; the last unbounded)")),
                              1, spgemm_cuda::kMaxBins);
    k.tunables = {threads_axis(), factor, tpr, bin_min, bins};
    k.constraints = {whole_warps(), {"threads_per_row is a power of two", [](const Params& p) {
                                         return power_of_two(p.integer("threads_per_row"));
                                     }}};
    return k;
}

kit::CudaKernel esc_kernel() {
    kit::CudaKernel k = emulatable(
        Algorithm::esc, "esc",
        "expand, sort, compress: every product written at its row's offset (a warp per row), each row's "
        "segment sorted by a block (bitonic; in shared memory up to 2048 products, in place in global memory "
        "beyond), equal columns summed into a second buffer, copied to C after a device scan; rows sorted");
    k.tunables = {threads_axis()};
    k.constraints = {whole_warps()};
    return k;
}

kit::CudaKernel cusparse_kernel() {
    kit::CudaKernel k = kernel_of(Algorithm::cusparse, "cusparse",
                                  "the peer: cuSPARSE's cusparseSpGEMM (CUSPARSE_SPGEMM_DEFAULT, FP64, int32 "
                                  "indices): work estimation, compute, copy, work buffers and C kept across runs; the "
                                  "buffers' sizes are in each case's message");
    k.gpu_only_reason = "calls cuSPARSE (cusparseSpGEMM), which cuda-emu cannot run";
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [](const Workload& wl, const Params&) {
        const auto& w = workload_as<SpgemmWorkload>(wl);
        return spgemm_cuda::cuda_gpu::make_cusparse_case(w.a(), w.b());
    };
#endif
    return k;
}

}  // namespace

spgemm_cuda::Tuning spgemm_cuda_tuning(Algorithm algorithm, const Params& point) {
    spgemm_cuda::Tuning t;
    t.algorithm = algorithm;
    t.threads = static_cast<int>(tunable_or(point, "threads", t.threads));
    t.table_factor = tunable_or(point, "table_factor", t.table_factor);
    t.threads_per_row = static_cast<int>(tunable_or(point, "threads_per_row", t.threads_per_row));
    t.bin_min = static_cast<int>(tunable_or(point, "bin_min", t.bin_min));
    t.bins = static_cast<int>(tunable_or(point, "bins", t.bins));
    return t;
}

std::vector<Counter> spgemm_cuda_model(Algorithm algorithm, const SpgemmWorkload& w, const spgemm_cuda::Tuning& t) {
    const ProductStats& s = w.stats();
    const bool same = &w.a() == &w.b();
    const double min_bytes =
        csr_bytes(s.a.rows, s.a.nnz) + (same ? 0.0 : csr_bytes(s.b.rows, s.b.nnz)) + csr_bytes(s.a.rows, s.nnz_c);
    const double b_bytes = csr_bytes(s.b.rows, s.b.nnz);
    std::vector<TrafficStream> streams;
    double workspace = 0;
    if (algorithm == Algorithm::cusparse) {
        streams = {{kInf, min_bytes}};  // cuSPARSE's own traffic is unknown: its minimum only
    } else {
        const Traffic x = algorithm == Algorithm::esc ? esc_traffic(w) : hash_traffic(w, t, w.problem().sorted);
        streams = {{b_bytes, x.b}, {x.table_bytes, x.tables}, {kInf, x.other}};
        workspace = x.workspace;
    }
    std::vector<Counter> cs = byte_model(2.0 * d(s.products), min_bytes, workspace, kit::emu_gpu_hierarchy(), streams);
    if (algorithm == Algorithm::cusparse)
        std::erase_if(cs, [](const Counter& c) { return c.name == counters::kWorkspace; });
    return with_product_counters(w, std::move(cs));
}

void register_spgemm_cuda(Catalogue& c) {
    for (const kit::CudaKernel& k : {rowwise_hash_kernel(), esc_kernel(), cusparse_kernel()})
        kit::add_cuda_variants(c, "spgemm", k);
}

}  // namespace memwall
