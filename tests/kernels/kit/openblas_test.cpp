// OpenBLAS opened at run time when the build's path is missing (a relocated memwall, such as the
// GPU kit's on a machine without Debian's OpenBLAS): this test's copy of openblas.cpp is built
// with a path that does not exist, so only the soname fallback can find the library.
#include "kernels/kit/openblas.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace memwall::kit {
namespace {

TEST(OpenBlas, FoundByItsSonameWhenTheBuildsPathIsMissing) {
    // C = A·B with A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]] (row-major).
    const float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8};
    float c[] = {-1, -1, -1, -1};
    openblas::sgemm()(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    const float want[] = {19, 22, 43, 50};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(c[i], want[i], 1e-5f) << i;
    const double ad[] = {1, 2, 3, 4}, bd[] = {5, 6, 7, 8};
    double cd[] = {-1, -1, -1, -1};
    openblas::dgemm()(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, ad, 2, bd, 2, 0.0, cd, 2);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(cd[i], want[i], 1e-12) << i;
}

}  // namespace
}  // namespace memwall::kit
