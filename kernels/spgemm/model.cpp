// FLOP and byte models of the spgemm variants (metrics/byte_model.hpp), from the workload's
// exact counts: FLOPs 2 × products; bytes.min A, B and C once; each phase's re-reads of B's
// rows (one per product), its accumulator traffic, and C's writes, each served from the level
// that holds its working set.
#include "kernels/spgemm/models.hpp"

#include <cmath>
#include <limits>

#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double d(std::int64_t x) { return static_cast<double>(x); }

double csr_bytes(const CsrStats& s) { return 12.0 * d(s.nnz) + 8.0 * d(s.rows + 1); }

struct Sizes {
    double products, nnz_a, rows, nnz_c, b_bytes, min_bytes;
};

Sizes sizes_of(const SpgemmWorkload& w) {
    const ProductStats& s = w.stats();
    const bool same = &w.a() == &w.b();
    const double c = 12.0 * d(s.nnz_c) + 8.0 * d(s.a.rows + 1);
    return {d(s.products), d(s.a.nnz),     d(s.a.rows),
            d(s.nnz_c),    csr_bytes(s.b), csr_bytes(s.a) + (same ? 0.0 : csr_bytes(s.b)) + c};
}

// What every two-phase variant moves besides its accumulator: A streamed and B's rows fetched
// per product, in both phases (symbolic reads columns only), and C written (row counts, then
// columns and values).
std::vector<TrafficStream> common_streams(const Sizes& z, int threads) {
    return {
        {kInf, 2.0 * (8.0 * z.rows) + 4.0 * z.nnz_a + 12.0 * z.nnz_a},  // A: symbolic cols; numeric cols + values
        {z.b_bytes / threads,
         2.0 * 16.0 * z.nnz_a + 4.0 * z.products + 12.0 * z.products},  // B's row pointers and rows
        {kInf, 8.0 * z.rows + 8.0 * z.rows + 12.0 * z.nnz_c},           // row counts, row pointers, C
    };
}

}  // namespace

std::vector<Counter> with_product_counters(const SpgemmWorkload& w, std::vector<Counter> cs) {
    const ProductStats& s = w.stats();
    auto add = [&](const char* name, double v, const char* unit) {
        cs.push_back({name, v, unit, CounterSource::model});
    };
    add("input.a.rows", d(s.a.rows), "");
    add("input.a.nnz", d(s.a.nnz), "");
    add("input.a.row_nnz.min", d(s.a.row_min), "");
    add("input.a.row_nnz.mean", s.a.row_mean, "");
    add("input.a.row_nnz.max", d(s.a.row_max), "");
    add("input.b.nnz", d(s.b.nnz), "");
    add("spgemm.products", d(s.products), "");
    add("spgemm.row_products.max", d(s.max_row_products), "");
    add("spgemm.nnz_c", d(s.nnz_c), "");
    add("spgemm.compression", s.compression(), "");
    return cs;
}

std::vector<Counter> spgemm_model(SpgemmMethod method, const SpgemmWorkload& w, const spgemm_cpu::Tuning& t,
                                  const MemoryHierarchy& mh, int threads) {
    const Sizes z = sizes_of(w);
    auto streams = common_streams(z, threads);
    double workspace = 8.0 * z.rows;
    const double cols = d(w.b().cols);
    switch (method) {
        case SpgemmMethod::dense: {
            // Stamp (symbolic), stamp and value (numeric) per product, over B's columns.
            streams.push_back({16.0 * cols, 24.0 * z.products});
            workspace += threads * 16.0 * cols;
            break;
        }
        case SpgemmMethod::hash: {
            // Key probes (symbolic), key and value (numeric) per product; each entry's slot
            // listed, then emptied in both phases and gathered in the numeric one; the tables
            // are a bin's, mostly L1-sized.
            double largest = 1;
            for (const std::int64_t p : w.row_products()) {
                const std::int64_t bin = spgemm_cpu::hash_bin(p, t);
                const std::int64_t bound = bin + 1 < t.bins ? t.bin_min << bin : p;
                largest = std::max(largest, d(spgemm_cpu::hash_table_slots(bound, w.b().cols, t)));
            }
            streams.push_back({16.0 * largest, 16.0 * z.products + 2.0 * 8.0 * z.nnz_c + 12.0 * z.nnz_c});
            workspace += threads * 16.0 * largest;
            break;
        }
        case SpgemmMethod::esc: {
            // Each product written, sorted (log2 of its row's products passes) and read back:
            // columns in the symbolic phase, column-value pairs in the numeric one.
            double sort_bytes = 0, largest = 0;
            for (const std::int64_t p : w.row_products()) {
                const double m = d(p);
                if (m > 1) sort_bytes += m * std::log2(m);
                largest = std::max(largest, m);
            }
            streams.push_back({16.0 * largest, 8.0 * z.products + 4.0 * 2.0 * sort_bytes + 32.0 * z.products +
                                                   16.0 * 2.0 * sort_bytes});
            workspace += threads * 20.0 * largest;
            break;
        }
    }
    return with_product_counters(w, byte_model(2.0 * z.products, z.min_bytes, workspace, mh, streams));
}

}  // namespace memwall
