#include "kernels/spgemm/cpu_graphblas.hpp"

#include <omp.h>

// GraphBLAS.h declares C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace memwall::spgemm_cpu {

namespace {

// Allocation accounting: each block carries its size in a 16-byte header (malloc's alignment).
constexpr std::size_t kHeader = 16;
std::atomic<std::int64_t> live{0}, peak{0};

void note(std::int64_t delta) {
    const std::int64_t now = live.fetch_add(delta) + delta;
    std::int64_t p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {}
}

void* counted_malloc(std::size_t n) {
    auto* p = static_cast<unsigned char*>(std::malloc(n + kHeader));
    if (!p) return nullptr;
    std::memcpy(p, &n, sizeof n);
    note(static_cast<std::int64_t>(n));
    return p + kHeader;
}

// calloc itself, not malloc and memset: large blocks come zeroed from the kernel untouched, and
// GraphBLAS counts on that (writing the zeros would commit pages it never uses).
void* counted_calloc(std::size_t count, std::size_t size) {
    const std::size_t n = count * size;
    if (size != 0 && n / size != count) return nullptr;
    auto* p = static_cast<unsigned char*>(std::calloc(n + kHeader, 1));
    if (!p) return nullptr;
    std::memcpy(p, &n, sizeof n);
    note(static_cast<std::int64_t>(n));
    return p + kHeader;
}

void counted_free(void* q) {
    if (!q) return;
    auto* p = static_cast<unsigned char*>(q) - kHeader;
    std::size_t n = 0;
    std::memcpy(&n, p, sizeof n);
    note(-static_cast<std::int64_t>(n));
    std::free(p);
}

void* counted_realloc(void* q, std::size_t n) {
    if (!q) return counted_malloc(n);
    auto* p = static_cast<unsigned char*>(q) - kHeader;
    std::size_t old = 0;
    std::memcpy(&old, p, sizeof old);
    auto* r = static_cast<unsigned char*>(std::realloc(p, n + kHeader));
    if (!r) return nullptr;
    std::memcpy(r, &n, sizeof n);
    note(static_cast<std::int64_t>(n) - static_cast<std::int64_t>(old));
    return r + kHeader;
}

void ok(GrB_Info info, const char* what) {
    if (info != GrB_SUCCESS && info != GrB_NO_VALUE)
        throw std::runtime_error(std::string("GraphBLAS: ") + what + " failed (GrB_Info " + std::to_string(info) + ")");
}

// GraphBLAS is started once per process, with the counting allocator, and the threads memwall
// runs its own kernels with.
void start_graphblas() {
    static std::once_flag once;
    std::call_once(once, [] {
        ok(GxB_init(GrB_NONBLOCKING, counted_malloc, counted_calloc, counted_realloc, counted_free), "GxB_init");
        ok(GxB_Global_Option_set_INT32(static_cast<GxB_Option_Field>(GxB_NTHREADS), omp_get_max_threads()),
           "setting GxB_NTHREADS");
    });
}

GrB_Matrix to_graphblas(const CsrMatrix& m) {
    GrB_Matrix g = nullptr;
    ok(GrB_Matrix_new(&g, GrB_FP64, static_cast<GrB_Index>(m.rows), static_cast<GrB_Index>(m.cols)), "GrB_Matrix_new");
    ok(GxB_Matrix_Option_set_INT32(g, GxB_SPARSITY_CONTROL, GxB_SPARSE), "setting sparse");
    std::vector<GrB_Index> rows(m.col.size()), cols(m.col.size());
    for (std::int64_t i = 0; i < m.rows; ++i)
        for (std::int64_t e = m.row_ptr[static_cast<std::size_t>(i)]; e < m.row_ptr[static_cast<std::size_t>(i) + 1];
             ++e) {
            rows[static_cast<std::size_t>(e)] = static_cast<GrB_Index>(i);
            cols[static_cast<std::size_t>(e)] = static_cast<GrB_Index>(m.col[static_cast<std::size_t>(e)]);
        }
    // An empty matrix has no arrays to pass (GraphBLAS refuses null pointers).
    if (!m.col.empty())
        ok(GrB_Matrix_build_FP64(g, rows.data(), cols.data(), m.val.data(), static_cast<GrB_Index>(m.col.size()),
                                 GrB_PLUS_FP64),
           "GrB_Matrix_build");
    ok(GrB_Matrix_wait(g, GrB_MATERIALIZE), "GrB_wait");
    return g;
}

}  // namespace

struct GraphblasProduct::Handles {
    GrB_Matrix a = nullptr, b = nullptr, c = nullptr;
    GrB_Descriptor desc = nullptr;
    ~Handles() {
        GrB_Matrix_free(&c);
        if (b != a) GrB_Matrix_free(&b);
        GrB_Matrix_free(&a);
        GrB_Descriptor_free(&desc);
    }
};

GraphblasProduct::GraphblasProduct(const SpgemmWorkload& w, GraphblasMethod method)
    : w_(w), method_(method), h_(std::make_unique<Handles>()) {
    start_graphblas();
    h_->a = to_graphblas(w.a());
    h_->b = &w.b() == &w.a() ? h_->a : to_graphblas(w.b());
    ok(GrB_Descriptor_new(&h_->desc), "GrB_Descriptor_new");
    ok(GxB_Desc_set_INT32(h_->desc, GxB_AxB_METHOD, method == GraphblasMethod::hash ? GxB_AxB_HASH : GxB_AxB_GUSTAVSON),
       "setting GxB_AxB_METHOD");
}

GraphblasProduct::~GraphblasProduct() = default;

double GraphblasProduct::multiply() {
    GrB_Matrix_free(&h_->c);
    const std::int64_t before = live.load();
    peak.store(before);
    const auto t0 = std::chrono::steady_clock::now();
    ok(GrB_Matrix_new(&h_->c, GrB_FP64, static_cast<GrB_Index>(w_.a().rows), static_cast<GrB_Index>(w_.b().cols)),
       "GrB_Matrix_new");
    ok(GxB_Matrix_Option_set_INT32(h_->c, GxB_SPARSITY_CONTROL, GxB_SPARSE), "setting sparse");
    ok(GrB_mxm(h_->c, nullptr, nullptr, GrB_PLUS_TIMES_SEMIRING_FP64, h_->a, h_->b, h_->desc), "GrB_mxm");
    // GrB_mxm leaves C's rows jumbled (unsorted) and sorts them when C is next used; sorted=1
    // asks for that sort in the time, as it does of memwall's variants.
    if (w_.problem().sorted) ok(GrB_Matrix_wait(h_->c, GrB_MATERIALIZE), "GrB_wait");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    peak_bytes_ = static_cast<double>(peak.load() - before);
    return s;
}

CsrMatrix GraphblasProduct::result() const {
    GrB_Index nvals = 0;
    ok(GrB_Matrix_nvals(&nvals, h_->c), "GrB_Matrix_nvals");
    std::vector<GrB_Index> rows(nvals), cols(nvals);
    std::vector<double> vals(nvals);
    GrB_Index n = nvals;
    if (nvals > 0)
        ok(GrB_Matrix_extractTuples_FP64(rows.data(), cols.data(), vals.data(), &n, h_->c), "GrB_Matrix_extractTuples");
    CsrMatrix c;
    c.rows = w_.a().rows;
    c.cols = w_.b().cols;
    c.row_ptr.assign(static_cast<std::size_t>(c.rows) + 1, 0);
    for (GrB_Index e = 0; e < n; ++e) ++c.row_ptr[rows[e] + 1];
    for (std::size_t i = 0; i + 1 < c.row_ptr.size(); ++i) c.row_ptr[i + 1] += c.row_ptr[i];
    c.col.resize(n);
    c.val.resize(n);
    std::vector<std::int64_t> next(c.row_ptr.begin(), c.row_ptr.end() - 1);
    for (GrB_Index e = 0; e < n; ++e) {
        const auto at = static_cast<std::size_t>(next[rows[e]]++);
        c.col[at] = static_cast<std::int32_t>(cols[e]);
        c.val[at] = vals[e];
    }
    return c;
}

std::string GraphblasProduct::detail() const {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "SuiteSparse:GraphBLAS %d.%d.%d GrB_mxm, %s, %d threads; %s; C allocated in each run; peak "
                  "allocation %.1f MiB",
                  GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB,
                  method_ == GraphblasMethod::hash ? "GxB_AxB_HASH" : "GxB_AxB_GUSTAVSON", omp_get_max_threads(),
                  w_.problem().sorted ? "rows sorted (GrB_wait in the time)"
                                      : "rows as GrB_mxm leaves them (jumbled; GraphBLAS sorts them later, untimed)",
                  peak_bytes_ / (1024.0 * 1024.0));
    return buf;
}

}  // namespace memwall::spgemm_cpu
