// The spgemm family's generated inputs, each from a seed: R-MAT (power-law graphs), Erdős–Rényi,
// 2D 5-point and 3D 7-/27-point Poisson stencils, banded. Values are never zero: the stencils'
// own coefficients, else uniform in +-[0.5, 1] from the seed.
#pragma once

#include <cstdint>

#include "kernels/spgemm/csr.hpp"

namespace memwall {

// R-MAT (Chakrabarti et al.): 2^scale vertices, edge_factor * 2^scale edges, each placed by
// recursive quadrant choice with probabilities a, b, c and 1 - a - b - c; repeated edges are
// kept once, so nnz is at most the edge count. Throws UsageError for a scale outside 1..30 or
// probabilities that are not a distribution.
CsrMatrix rmat(int scale, double edge_factor, double a, double b, double c, std::uint64_t seed);
// Erdős–Rényi G(n, p) with p = mean_degree / n: each entry present independently.
CsrMatrix erdos_renyi(std::int64_t n, double mean_degree, std::uint64_t seed);
// The 5-point Laplacian on an nx x nx grid (4 on the diagonal, -1 to each neighbour).
CsrMatrix poisson_2d(std::int64_t nx);
// The 7-point (6, -1) or 27-point (26, -1) Laplacian on an nx^3 grid.
CsrMatrix poisson_3d(std::int64_t nx, int points);
// Entries with |i - j| <= half_width in an n x n matrix.
CsrMatrix banded(std::int64_t n, std::int64_t half_width, std::uint64_t seed);

// An input's statistics, stored with every case.
struct CsrStats {
    std::int64_t rows = 0, cols = 0, nnz = 0;
    std::int64_t row_min = 0, row_max = 0;
    double row_mean = 0;
};
CsrStats csr_stats(const CsrMatrix& m);

}  // namespace memwall
