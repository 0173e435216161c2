// Matrix Market files (kernels/spgemm/matrix_market.cpp) as `matrix=PATH` gives them. A file the
// reader accepts must come back as a valid CSR matrix: row pointers from 0 to nnz, never
// decreasing; columns in range and strictly increasing within each row.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "kernels/spgemm/matrix_market.hpp"

using namespace memwall;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        // A million rows is 8 MB of row pointers: within a fuzzer's memory limit.
        const CsrMatrix m = parse_matrix_market(in, "fuzz.mtx", nullptr, 1 << 20);
        if (m.row_ptr.size() != static_cast<std::size_t>(m.rows) + 1 || m.row_ptr.front() != 0 ||
            m.row_ptr.back() != m.nnz() || m.val.size() != m.col.size())
            std::abort();
        for (std::int64_t i = 0; i < m.rows; ++i)
            for (std::int64_t e = m.row_ptr[static_cast<std::size_t>(i)];
                 e < m.row_ptr[static_cast<std::size_t>(i) + 1]; ++e) {
                const auto c = m.col[static_cast<std::size_t>(e)];
                if (c < 0 || c >= m.cols) std::abort();
                if (e > m.row_ptr[static_cast<std::size_t>(i)] && c <= m.col[static_cast<std::size_t>(e) - 1])
                    std::abort();
            }
    } catch (const InputError&) {}
    return 0;
}
