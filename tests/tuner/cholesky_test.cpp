#include "tuner/cholesky.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace memwall {
namespace {

TEST(Cholesky, SolvesASymmetricPositiveDefiniteSystem) {
    const std::vector<double> a{4,   2, 0.4,  //
                                2,   5, 1,    //
                                0.4, 1, 3};
    const std::vector<double> x{1.5, -2, 0.25};
    std::vector<double> b(3, 0.0);
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) b[i] += a[i * 3 + j] * x[j];
    const std::vector<double> solved = solve_spd(a, b);
    ASSERT_EQ(solved.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(solved[i], x[i], 1e-12);

    // The factor times its transpose is the matrix again.
    std::vector<double> l = a;
    ASSERT_TRUE(cholesky(l, 3));
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
            double s = 0;
            for (std::size_t k = 0; k <= std::min(i, j); ++k) s += l[i * 3 + k] * l[j * 3 + k];
            EXPECT_NEAR(s, a[i * 3 + j], 1e-12);
        }
}

TEST(Cholesky, RefusesAMatrixThatIsNotPositiveDefinite) {
    std::vector<double> a{1, 2,  //
                          2, 1};
    EXPECT_FALSE(cholesky(a, 2));
    for (double v : solve_spd({1, 2, 2, 1}, {1, 1})) EXPECT_TRUE(std::isnan(v));
}

}  // namespace
}  // namespace memwall
