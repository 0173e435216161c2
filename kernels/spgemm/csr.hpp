// A sparse matrix in compressed sparse row form: the spgemm family's input and output.
#pragma once

#include <cstdint>
#include <vector>

namespace memwall {

// Row i's entries are col[row_ptr[i] .. row_ptr[i+1]) with their values, columns strictly
// increasing within a row (no duplicates).
struct CsrMatrix {
    std::int64_t rows = 0, cols = 0;
    std::vector<std::int64_t> row_ptr{0};
    std::vector<std::int32_t> col;
    std::vector<double> val;

    std::int64_t nnz() const { return static_cast<std::int64_t>(col.size()); }
};

}  // namespace memwall
