// The output check the families share: the first element that is not finite is named, the
// relative L2 error is measured against the reference, and a zero reference makes it absolute.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/kit/output_check.hpp"

namespace memwall {
namespace {

TEST(KitOutputCheck, FirstElementThatIsNotFinite) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const std::vector<double> v = {1.0, 2.0, inf, nan};
    EXPECT_EQ(kit::first_not_finite(v.size(), [&](std::size_t i) { return v[i]; }), 2u);
    EXPECT_EQ(kit::first_not_finite(2, [&](std::size_t i) { return v[i]; }), 2u);  // all finite: size
    const Check c = kit::not_finite("Y[0][2]", inf, 1e-3);
    EXPECT_FALSE(c.ok);
    EXPECT_TRUE(std::isinf(c.error));
    EXPECT_EQ(c.tolerance, 1e-3);
    EXPECT_EQ(c.message, "Y[0][2] is inf: not written or not finite");
}

TEST(KitOutputCheck, RelativeL2AgainstTheReference) {
    kit::RelativeL2 close, far;
    for (double r : {3.0, 4.0}) {
        close.add(r * (1 + 1e-6), r);
        far.add(r * 1.1, r);
    }
    const Check ok = close.result(1e-4);
    EXPECT_TRUE(ok.ok) << ok.message;
    EXPECT_NEAR(ok.error, 1e-6, 1e-9);
    const Check bad = far.result(1e-4, "over 2 rows");
    EXPECT_FALSE(bad.ok);
    EXPECT_NEAR(bad.error, 0.1, 1e-9);
    EXPECT_EQ(bad.message, "relative L2 error 0.1 over 2 rows exceeds 0.0001");
}

TEST(KitOutputCheck, AZeroReferenceMakesTheErrorAbsolute) {
    kit::RelativeL2 zero;
    zero.add(0.0, 0.0);
    EXPECT_TRUE(zero.result(1e-6).ok);
    zero.add(1e-3, 0.0);
    const Check c = zero.result(1e-6);
    EXPECT_FALSE(c.ok);
    EXPECT_NEAR(c.error, 1e-3, 1e-12);
}

}  // namespace
}  // namespace memwall
