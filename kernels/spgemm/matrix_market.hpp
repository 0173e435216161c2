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
    std::string field;         // real, integer or pattern
    std::string symmetry;      // general, symmetric or skew-symmetric
    std::int64_t entries = 0;  // stored entries (the size line's third count)
};

// Rows and columns cost memory whether they hold entries or not (CSR's row pointers, 8 bytes a
// row; a dense accumulator a word a column): a size line may claim at most
// supported_dimension(entries) of each, so a header of 2^31 - 1 rows with one entry is refused
// before 16 GiB of row pointers are allocated, while matrices whose rows hold entries pass.
inline constexpr std::int64_t kDimensionPerEntry = 16;
inline constexpr std::int64_t kDimensionFloor = std::int64_t{1} << 20;
std::int64_t supported_dimension(std::int64_t entries);

// Throws InputError "NAME:LINE: why". Memory grows with the entries read, never with the
// entry count a size line claims, nor with rows and columns beyond supported_dimension; the
// entries are checked to be all there first. `max_dimension` bounds rows and columns further (a
// fuzzer's memory limit; the format's own is 2^31 - 1).
CsrMatrix parse_matrix_market(std::istream& in, const std::string& name, MatrixMarketHeader* header = nullptr,
                              std::int64_t max_dimension = std::numeric_limits<std::int32_t>::max());
// The file at `path`; EnvironmentError when it cannot be opened.
CsrMatrix read_matrix_market(const std::string& path, MatrixMarketHeader* header = nullptr);

}  // namespace memwall
