// rowwise_hash: SMASH's row-wise product with a hash accumulator, OpSparse's details. Rows are
// binned by their products; a bin's table has the power of two at or above table_factor times
// its bound on the row's entries (products, and never more than B's columns), so a table fits
// the row and small rows touch small tables. Keys probe linearly from (col * 107) & (size - 1);
// each partial product is merged into its slot as it is generated. The slots a row fills are
// listed as they fill, so emptying the table and gathering the row cost its entries, not the
// table's size.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "kernels/spgemm/cpu_kernels.hpp"
#include "kernels/spgemm/cpu_rows.hpp"

namespace memwall::spgemm_cpu {

std::int64_t hash_bin(std::int64_t products, const Tuning& t) {
    std::int64_t bound = t.bin_min;
    for (std::int64_t j = 0; j + 1 < t.bins; ++j, bound *= 2)
        if (products <= bound) return j;
    return t.bins - 1;
}

std::int64_t hash_table_slots(std::int64_t products, std::int64_t cols, const Tuning& t) {
    const auto entries = static_cast<double>(std::max<std::int64_t>(1, std::min(products, cols)));
    return static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(std::ceil(t.table_factor * entries))));
}

namespace {

constexpr std::int32_t kEmpty = -1;

inline std::size_t slot_of(std::int32_t col, std::size_t mask) { return (static_cast<std::size_t>(col) * 107u) & mask; }

class RowwiseHash final : public Kernel {
  public:
    RowwiseHash(const SpgemmWorkload& w, const Tuning& t) : w_(w), t_(t), threads_(omp_get_max_threads()) {
        const auto& prod = w.row_products();
        std::vector<std::vector<std::int64_t>> rows(static_cast<std::size_t>(t.bins));
        for (std::size_t i = 0; i < prod.size(); ++i)
            rows[static_cast<std::size_t>(hash_bin(prod[i], t))].push_back(static_cast<std::int64_t>(i));
        std::int64_t largest = 1;
        for (std::int64_t j = 0; j < t.bins; ++j) {
            Bin bin;
            bin.rows = std::move(rows[static_cast<std::size_t>(j)]);
            if (bin.rows.empty()) continue;
            std::int64_t most = 0;
            for (const std::int64_t r : bin.rows) most = std::max(most, prod[static_cast<std::size_t>(r)]);
            // Bins up to the last are sized by their bound, as a GPU sizes a block's shared
            // table; the last by its largest row.
            const std::int64_t bound = j + 1 < t.bins ? t.bin_min << j : most;
            bin.slots = hash_table_slots(bound, w.b().cols, t);
            largest = std::max(largest, bin.slots);
            // Rows of the last bin are heavy and uneven: one per range.
            bin.ranges = balanced_ranges(prod, bin.rows, j + 1 < t.bins ? t.rows_per_chunk : 1, threads_);
            bins_.push_back(std::move(bin));
        }
        per_thread_.resize(static_cast<std::size_t>(threads_));
        for (auto& s : per_thread_) {
            s.keys.assign(static_cast<std::size_t>(largest), kEmpty);
            s.vals.resize(static_cast<std::size_t>(largest));
            s.filled.resize(static_cast<std::size_t>(largest));
        }
        counts_.resize(prod.size());
    }

    void symbolic(SpgemmOutput& out) override {
        const CsrMatrix& a = w_.a();
        const CsrMatrix& b = w_.b();
        for (const Bin& bin : bins_) {
            const std::size_t mask = static_cast<std::size_t>(bin.slots) - 1;
            for_each_row(bin.ranges, per_thread_, threads_, [&](Scratch& s, std::int64_t q) {
                std::int32_t* keys = s.keys.data();
                std::int32_t* filled = s.filled.data();
                const auto i = static_cast<std::size_t>(bin.rows[static_cast<std::size_t>(q)]);
                std::int64_t count = 0;
                for (std::int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
                    const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                    for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f) {
                        const std::int32_t j = b.col[static_cast<std::size_t>(f)];
                        for (std::size_t h = slot_of(j, mask);; h = (h + 1) & mask) {
                            if (keys[h] == j) break;
                            if (keys[h] == kEmpty) {
                                keys[h] = j;
                                filled[count++] = static_cast<std::int32_t>(h);
                                break;
                            }
                        }
                    }
                }
                counts_[i] = count;
                for (std::int64_t f = 0; f < count; ++f) keys[filled[f]] = kEmpty;
            });
        }
        finish_symbolic(counts_, b.cols, out);
    }

    void numeric(SpgemmOutput& out) override {
        const CsrMatrix& a = w_.a();
        const CsrMatrix& b = w_.b();
        const bool sorted = w_.problem().sorted;
        for (const Bin& bin : bins_) {
            const std::size_t mask = static_cast<std::size_t>(bin.slots) - 1;
            for_each_row(bin.ranges, per_thread_, threads_, [&](Scratch& s, std::int64_t q) {
                std::int32_t* keys = s.keys.data();
                double* vals = s.vals.data();
                std::int32_t* filled = s.filled.data();
                const auto i = static_cast<std::size_t>(bin.rows[static_cast<std::size_t>(q)]);
                std::size_t count = 0;
                for (std::int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
                    const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                    const double av = a.val[static_cast<std::size_t>(e)];
                    for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f) {
                        const std::int32_t j = b.col[static_cast<std::size_t>(f)];
                        const double p = av * b.val[static_cast<std::size_t>(f)];
                        for (std::size_t h = slot_of(j, mask);; h = (h + 1) & mask) {
                            if (keys[h] == j) {
                                vals[h] += p;
                                break;
                            }
                            if (keys[h] == kEmpty) {
                                keys[h] = j;
                                vals[h] = p;
                                filled[count++] = static_cast<std::int32_t>(h);
                                break;
                            }
                        }
                    }
                }
                gather(keys, vals, filled, count, out, i, sorted, s.row);
            });
        }
    }

    double workspace_bytes() const override {
        return static_cast<double>(threads_) * 16.0 * static_cast<double>(per_thread_.front().keys.size()) +
               8.0 * static_cast<double>(counts_.size());
    }

    std::string detail() const override {
        std::string bins;
        for (const Bin& b : bins_)
            bins += (bins.empty() ? "" : ", ") + std::to_string(b.rows.size()) + " rows/" + std::to_string(b.slots) +
                    " slots";
        return std::string("rows ") + (w_.problem().sorted ? "sorted" : "in table order (unsorted)") +
               "; bins (rows/table slots): " + bins;
    }

  private:
    struct Bin {
        std::vector<std::int64_t> rows;
        std::vector<RowRange> ranges;
        std::int64_t slots = 0;
    };
    struct Scratch {
        std::vector<std::int32_t> keys;
        std::vector<double> vals;
        std::vector<std::int32_t> filled;  // slots in the order the row filled them
        std::vector<std::pair<std::int32_t, double>> row;
    };

    // Moves the row's entries (the `count` slots listed in `filled`) to row i of C, in the order
    // they were filled or sorted, and empties the table.
    static void gather(std::int32_t* keys, const double* vals, const std::int32_t* filled, std::size_t count,
                       SpgemmOutput& out, std::size_t i, bool sorted,
                       std::vector<std::pair<std::int32_t, double>>& row) {
        std::int32_t* cols = out.c.col.data() + out.c.row_ptr[i];
        double* v = out.c.val.data() + out.c.row_ptr[i];
        if (!sorted) {
            for (std::size_t n = 0; n < count; ++n) {
                const auto h = static_cast<std::size_t>(filled[n]);
                cols[n] = keys[h];
                v[n] = vals[h];
                keys[h] = kEmpty;
            }
            return;
        }
        row.clear();
        for (std::size_t n = 0; n < count; ++n) {
            const auto h = static_cast<std::size_t>(filled[n]);
            row.emplace_back(keys[h], vals[h]);
            keys[h] = kEmpty;
        }
        std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        for (std::size_t n = 0; n < row.size(); ++n) {
            cols[n] = row[n].first;
            v[n] = row[n].second;
        }
    }

    const SpgemmWorkload& w_;
    Tuning t_;
    int threads_;
    std::vector<Bin> bins_;
    std::vector<Scratch> per_thread_;
    std::vector<std::int64_t> counts_;
};

}  // namespace

std::unique_ptr<Kernel> make_rowwise_hash(const SpgemmWorkload& w, const Tuning& t) {
    return std::make_unique<RowwiseHash>(w, t);
}

}  // namespace memwall::spgemm_cpu
