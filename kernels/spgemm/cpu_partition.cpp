// What the CPU kernels share: row ranges balanced by products, and C's row pointers.
#include <algorithm>
#include <numeric>

#include "kernels/spgemm/cpu_kernels.hpp"

namespace memwall::spgemm_cpu {

std::vector<RowRange> balanced_ranges(const std::vector<std::int64_t>& row_products,
                                      const std::vector<std::int64_t>& rows, std::int64_t max_rows, int threads) {
    std::int64_t total = 0;
    for (const std::int64_t r : rows) total += row_products[static_cast<std::size_t>(r)];
    const std::int64_t target = std::max<std::int64_t>(1, total / (std::max(threads, 1) * 8));
    std::vector<RowRange> out;
    std::int64_t begin = 0, work = 0;
    const auto n = static_cast<std::int64_t>(rows.size());
    for (std::int64_t k = 0; k < n; ++k) {
        work += row_products[static_cast<std::size_t>(rows[static_cast<std::size_t>(k)])];
        if (work >= target || k + 1 - begin >= max_rows || k + 1 == n) {
            out.push_back({begin, k + 1});
            begin = k + 1;
            work = 0;
        }
    }
    return out;
}

std::vector<RowRange> balanced_ranges(const std::vector<std::int64_t>& row_products, std::int64_t max_rows,
                                      int threads) {
    std::vector<std::int64_t> all(row_products.size());
    std::iota(all.begin(), all.end(), std::int64_t{0});
    return balanced_ranges(row_products, all, max_rows, threads);
}

void finish_symbolic(const std::vector<std::int64_t>& counts, std::int64_t cols, SpgemmOutput& out) {
    const std::int64_t nnz = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
    out.allocate(static_cast<std::int64_t>(counts.size()), cols, nnz);
    out.c.row_ptr[0] = 0;
    std::partial_sum(counts.begin(), counts.end(), out.c.row_ptr.begin() + 1);
}

}  // namespace memwall::spgemm_cpu
