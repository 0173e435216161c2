#include "kernels/spgemm/generators.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace memwall {
namespace {

// Row pointers from 0 to nnz; columns in range and strictly increasing; no zero value.
void expect_valid(const CsrMatrix& m) {
    ASSERT_EQ(m.row_ptr.size(), static_cast<std::size_t>(m.rows) + 1);
    EXPECT_EQ(m.row_ptr.front(), 0);
    EXPECT_EQ(m.row_ptr.back(), m.nnz());
    ASSERT_EQ(m.val.size(), m.col.size());
    for (std::int64_t i = 0; i < m.rows; ++i)
        for (auto e = m.row_ptr[static_cast<std::size_t>(i)]; e < m.row_ptr[static_cast<std::size_t>(i) + 1]; ++e) {
            const auto k = static_cast<std::size_t>(e);
            ASSERT_GE(m.col[k], 0);
            ASSERT_LT(m.col[k], m.cols);
            if (e > m.row_ptr[static_cast<std::size_t>(i)]) {
                ASSERT_GT(m.col[k], m.col[k - 1]);
            }
            ASSERT_NE(m.val[k], 0.0);
        }
}

bool symmetric_structure(const CsrMatrix& m) {
    auto has = [&](std::int64_t i, std::int32_t j) {
        for (auto e = m.row_ptr[static_cast<std::size_t>(i)]; e < m.row_ptr[static_cast<std::size_t>(i) + 1]; ++e)
            if (m.col[static_cast<std::size_t>(e)] == j) return true;
        return false;
    };
    for (std::int64_t i = 0; i < m.rows; ++i)
        for (auto e = m.row_ptr[static_cast<std::size_t>(i)]; e < m.row_ptr[static_cast<std::size_t>(i) + 1]; ++e)
            if (!has(m.col[static_cast<std::size_t>(e)], static_cast<std::int32_t>(i))) return false;
    return true;
}

TEST(SpgemmGenerators, StencilsHaveTheirClosedFormCounts) {
    const CsrMatrix p2 = poisson_2d(7);
    expect_valid(p2);
    EXPECT_EQ(p2.rows, 49);
    EXPECT_EQ(p2.nnz(), 5 * 49 - 4 * 7);
    EXPECT_TRUE(symmetric_structure(p2));
    const CsrMatrix p7 = poisson_3d(5, 7);
    expect_valid(p7);
    EXPECT_EQ(p7.nnz(), 7 * 125 - 6 * 25);
    const CsrMatrix p27 = poisson_3d(5, 27);
    expect_valid(p27);
    EXPECT_EQ(p27.nnz(), 13 * 13 * 13);  // (3 nx - 2)^3
    EXPECT_TRUE(symmetric_structure(p27));
    const CsrStats s = csr_stats(p27);
    EXPECT_EQ(s.row_min, 8);  // a corner
    EXPECT_EQ(s.row_max, 27);
}

TEST(SpgemmGenerators, BandedRowsHoldTheBand) {
    const CsrMatrix b = banded(10, 2, 3);
    expect_valid(b);
    EXPECT_EQ(b.nnz(), 10 + 2 * (9 + 8));
    EXPECT_EQ(csr_stats(b).row_max, 5);
    EXPECT_EQ(csr_stats(banded(4, 0, 1)).nnz, 4);
}

TEST(SpgemmGenerators, RandomGraphsAreValidAndFollowTheirSeed) {
    const CsrMatrix r = rmat(10, 8, 0.57, 0.19, 0.19, 1);
    expect_valid(r);
    EXPECT_EQ(r.rows, 1024);
    EXPECT_LE(r.nnz(), 8 * 1024);
    EXPECT_GT(r.nnz(), 4 * 1024);  // repeats merged, most edges distinct at this size
    const CsrStats s = csr_stats(r);
    EXPECT_GT(s.row_max, 10 * s.row_mean);  // power law: hubs far above the mean
    const CsrMatrix again = rmat(10, 8, 0.57, 0.19, 0.19, 1);
    EXPECT_EQ(again.col, r.col);
    EXPECT_NE(rmat(10, 8, 0.57, 0.19, 0.19, 2).col, r.col);
    const CsrMatrix e = erdos_renyi(4096, 8, 5);
    expect_valid(e);
    EXPECT_NEAR(csr_stats(e).row_mean, 8.0, 0.5);
    EXPECT_LT(csr_stats(e).row_max, 30);  // no hubs
}

TEST(SpgemmGenerators, BadParametersAreUsageErrors) {
    EXPECT_THROW(rmat(0, 8, 0.57, 0.19, 0.19, 1), UsageError);
    EXPECT_THROW(rmat(10, 8, 0.6, 0.3, 0.3, 1), UsageError);
    EXPECT_THROW(erdos_renyi(100, 0, 1), UsageError);
    EXPECT_THROW(poisson_3d(4, 9), UsageError);
    EXPECT_THROW(banded(4, 4, 1), UsageError);
}

}  // namespace
}  // namespace memwall
