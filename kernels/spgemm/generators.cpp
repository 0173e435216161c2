// The spgemm family's generators (generators.hpp).
#include "kernels/spgemm/generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/errors.hpp"

namespace memwall {

namespace {

// Rows of sorted, unique columns to CSR, values drawn from `gen` (or `value(i, j)`).
template <class Value>
CsrMatrix from_rows(std::int64_t rows, std::int64_t cols, std::vector<std::vector<std::int32_t>>& row_cols,
                    Value value) {
    CsrMatrix m;
    m.rows = rows;
    m.cols = cols;
    m.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
    for (std::int64_t i = 0; i < rows; ++i) {
        auto& r = row_cols[static_cast<std::size_t>(i)];
        std::sort(r.begin(), r.end());
        r.erase(std::unique(r.begin(), r.end()), r.end());
        for (std::int32_t j : r) {
            m.col.push_back(j);
            m.val.push_back(value(i, j));
        }
        m.row_ptr[static_cast<std::size_t>(i) + 1] = m.nnz();
    }
    return m;
}

// +-[0.5, 1] from the seed.
struct RandomValue {
    std::mt19937_64& gen;
    double operator()(std::int64_t, std::int32_t) {
        std::uniform_real_distribution<double> magnitude(0.5, 1.0);
        const double v = magnitude(gen);
        return gen() & 1 ? -v : v;
    }
};

std::int32_t index(std::int64_t i) { return static_cast<std::int32_t>(i); }

}  // namespace

CsrMatrix rmat(int scale, double edge_factor, double a, double b, double c, std::uint64_t seed) {
    if (scale < 1 || scale > 30) throw UsageError("rmat: scale must be 1 to 30, got " + std::to_string(scale));
    if (!(edge_factor > 0) || edge_factor > 1e6) throw UsageError("rmat: edge factor must be in (0, 1e6]");
    const double d = 1.0 - a - b - c;
    if (a < 0 || b < 0 || c < 0 || d < -1e-12)
        throw UsageError("rmat: a, b and c must be non-negative with a + b + c <= 1");
    const std::int64_t n = std::int64_t{1} << scale;
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(n));
    const auto edges = static_cast<std::int64_t>(std::llround(static_cast<double>(n) * edge_factor));
    for (std::int64_t e = 0; e < edges; ++e) {
        std::int64_t i = 0, j = 0;
        for (int level = 0; level < scale; ++level) {
            const double x = u(gen);
            const int quadrant = x < a ? 0 : x < a + b ? 1 : x < a + b + c ? 2 : 3;
            i = 2 * i + (quadrant >> 1);
            j = 2 * j + (quadrant & 1);
        }
        rows[static_cast<std::size_t>(i)].push_back(index(j));
    }
    return from_rows(n, n, rows, RandomValue{gen});
}

CsrMatrix erdos_renyi(std::int64_t n, double mean_degree, std::uint64_t seed) {
    if (n < 1 || n > (std::int64_t{1} << 31) - 1) throw UsageError("erdos_renyi: n must be 1 to 2^31 - 1");
    if (!(mean_degree > 0) || mean_degree > static_cast<double>(n))
        throw UsageError("erdos_renyi: the mean degree must be above 0 and at most n");
    std::mt19937_64 gen(seed);
    // Each row's count is binomial(n, p); its columns are drawn without repetition.
    std::binomial_distribution<std::int64_t> count(n, mean_degree / static_cast<double>(n));
    std::uniform_int_distribution<std::int64_t> column(0, n - 1);
    std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(n));
    for (auto& r : rows) {
        const std::int64_t k = count(gen);
        while (static_cast<std::int64_t>(r.size()) < k) {
            r.push_back(index(column(gen)));
            if (static_cast<std::int64_t>(r.size()) == k) {
                std::sort(r.begin(), r.end());
                r.erase(std::unique(r.begin(), r.end()), r.end());
            }
        }
    }
    return from_rows(n, n, rows, RandomValue{gen});
}

CsrMatrix poisson_2d(std::int64_t nx) {
    if (nx < 1 || nx > 46340) throw UsageError("poisson_2d: nx must be 1 to 46340");
    const std::int64_t n = nx * nx;
    std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(n));
    for (std::int64_t y = 0; y < nx; ++y)
        for (std::int64_t x = 0; x < nx; ++x) {
            auto& r = rows[static_cast<std::size_t>(y * nx + x)];
            r.push_back(index(y * nx + x));
            if (x > 0) r.push_back(index(y * nx + x - 1));
            if (x + 1 < nx) r.push_back(index(y * nx + x + 1));
            if (y > 0) r.push_back(index((y - 1) * nx + x));
            if (y + 1 < nx) r.push_back(index((y + 1) * nx + x));
        }
    return from_rows(n, n, rows, [](std::int64_t i, std::int32_t j) { return i == j ? 4.0 : -1.0; });
}

CsrMatrix poisson_3d(std::int64_t nx, int points) {
    if (points != 7 && points != 27) throw UsageError("poisson_3d: points must be 7 or 27");
    if (nx < 1 || nx > 1290) throw UsageError("poisson_3d: nx must be 1 to 1290");
    const std::int64_t n = nx * nx * nx;
    std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(n));
    for (std::int64_t z = 0; z < nx; ++z)
        for (std::int64_t y = 0; y < nx; ++y)
            for (std::int64_t x = 0; x < nx; ++x) {
                auto& r = rows[static_cast<std::size_t>((z * nx + y) * nx + x)];
                for (int dz = -1; dz <= 1; ++dz)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx) {
                            // 7 points: the centre and the six face neighbours.
                            if (points == 7 && std::abs(dx) + std::abs(dy) + std::abs(dz) > 1) continue;
                            const std::int64_t xx = x + dx, yy = y + dy, zz = z + dz;
                            if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= nx || zz >= nx) continue;
                            r.push_back(index((zz * nx + yy) * nx + xx));
                        }
            }
    const double centre = points - 1;
    return from_rows(n, n, rows, [centre](std::int64_t i, std::int32_t j) { return i == j ? centre : -1.0; });
}

CsrMatrix banded(std::int64_t n, std::int64_t half_width, std::uint64_t seed) {
    if (n < 1 || n > (std::int64_t{1} << 31) - 1) throw UsageError("banded: n must be 1 to 2^31 - 1");
    if (half_width < 0 || half_width >= n) throw UsageError("banded: the half width must be 0 to n - 1");
    std::mt19937_64 gen(seed);
    std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = std::max<std::int64_t>(0, i - half_width); j <= std::min(n - 1, i + half_width); ++j)
            rows[static_cast<std::size_t>(i)].push_back(index(j));
    return from_rows(n, n, rows, RandomValue{gen});
}

CsrStats csr_stats(const CsrMatrix& m) {
    CsrStats s;
    s.rows = m.rows;
    s.cols = m.cols;
    s.nnz = m.nnz();
    if (m.rows == 0) return s;
    s.row_min = s.nnz;
    for (std::int64_t i = 0; i < m.rows; ++i) {
        const std::int64_t k = m.row_ptr[static_cast<std::size_t>(i) + 1] - m.row_ptr[static_cast<std::size_t>(i)];
        s.row_min = std::min(s.row_min, k);
        s.row_max = std::max(s.row_max, k);
    }
    s.row_mean = static_cast<double>(s.nnz) / static_cast<double>(m.rows);
    return s;
}

}  // namespace memwall
