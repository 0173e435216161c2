// The strict Matrix Market reader of the spgemm family's `matrix=PATH` inputs: coordinate
// matrices, fields real, integer and pattern (values 1), symmetries general, symmetric and
// skew-symmetric (expanded to both triangles). Anything else is refused with the file and line:
// a malformed or unsupported header, a size line that is not three counts, an index out of range
// or not an integer, a value that is not a finite number, an entry a symmetry forbids (above the
// diagonal; on it for skew-symmetric), a duplicate entry, fewer entries than the size line
// promises (a truncated file) or more.
#pragma once

#include <cstdint>
#include <istream>
#include <limits>
#include <string>

#include "kernels/spgemm/csr.hpp"

namespace memwall {

struct MatrixMarketHeader {
    std::string field;     // real, integer or pattern
    std::string symmetry;  // general, symmetric or skew-symmetric
    std::int64_t entries = 0;  // stored entries (the size line's third count)
};

// Throws InputError "NAME:LINE: why". Memory grows with the entries read, never with the
// entry count a size line claims; the row count costs 8 bytes a row (CSR's row pointers), so
// `max_dimension` bounds rows and columns (a fuzzer's memory limit; the format's own is 2^31 - 1).
CsrMatrix parse_matrix_market(std::istream& in, const std::string& name, MatrixMarketHeader* header = nullptr,
                              std::int64_t max_dimension = std::numeric_limits<std::int32_t>::max());
// The file at `path`; EnvironmentError when it cannot be opened.
CsrMatrix read_matrix_market(const std::string& path, MatrixMarketHeader* header = nullptr);

}  // namespace memwall
