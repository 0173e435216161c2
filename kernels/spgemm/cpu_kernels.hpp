// The spgemm family's CPU kernels: each runs a symbolic phase (C's row pointers, then C is
// sized) and a numeric phase (C's columns and values), timed apart by the instance. Work is
// split into contiguous row ranges of about equal products (not rows), run by OpenMP's dynamic
// schedule.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/spgemm/spgemm.hpp"

namespace memwall::spgemm_cpu {

struct Tuning {
    std::int64_t rows_per_chunk = 512;  // at most this many rows in one range
    // rowwise_hash: table slots per bound on the row's entries. 8 keeps the load at most 1/8, where
    // linear probing averages about one probe: at 1.5 (GPU shared memory's budget) the load reaches
    // 2/3, and (col*107)&(size-1) maps the 27-point stencil's planes (4096 columns apart at 64^3)
    // onto each other in tables of 4096 slots; 8 was 1.1-1.5x faster on the bench's inputs but the
    // most skewed R-MAT (5% slower: its largest rows' tables outgrow L2).
    double table_factor = 8;
    std::int64_t bin_min = 32;  // rowwise_hash: bin j holds rows of <= bin_min * 2^j products
    std::int64_t bins = 8;      // rowwise_hash: the last bin holds every larger row
};

struct RowRange {
    std::int64_t begin = 0, end = 0;
};

// Ranges of consecutive rows over `rows`, cut where the products reach total / (threads * 8)
// or the rows reach `max_rows`, so that a dense row is a range of its own.
std::vector<RowRange> balanced_ranges(const std::vector<std::int64_t>& row_products,
                                      const std::vector<std::int64_t>& rows, std::int64_t max_rows, int threads);
// The same over every row of A.
std::vector<RowRange> balanced_ranges(const std::vector<std::int64_t>& row_products, std::int64_t max_rows,
                                      int threads);

class Kernel {
  public:
    virtual ~Kernel() = default;
    // Row pointers of C, then C sized (SpgemmOutput::allocate).
    virtual void symbolic(SpgemmOutput& out) = 0;
    // Columns and values of C in the rows symbolic laid out.
    virtual void numeric(SpgemmOutput& out) = 0;
    // Bytes the kernel holds besides its inputs and C (per-thread accumulators, ...).
    virtual double workspace_bytes() const = 0;
    // How it works for this case: row order, bins, tables.
    virtual std::string detail() const = 0;
};

// Sets C's row pointers from each row's entries (counts[i] for row i) and sizes C.
void finish_symbolic(const std::vector<std::int64_t>& counts, std::int64_t cols, SpgemmOutput& out);

std::unique_ptr<Kernel> make_gustavson_dense(const SpgemmWorkload& w, const Tuning& t);
std::unique_ptr<Kernel> make_rowwise_hash(const SpgemmWorkload& w, const Tuning& t);
std::unique_ptr<Kernel> make_esc(const SpgemmWorkload& w, const Tuning& t);

// rowwise_hash's bins (also its model's): the upper bound of each bin's products, the last
// unbounded, and the table slots a row of `products` gets.
std::int64_t hash_bin(std::int64_t products, const Tuning& t);
std::int64_t hash_table_slots(std::int64_t products, std::int64_t cols, const Tuning& t);

}  // namespace memwall::spgemm_cpu
