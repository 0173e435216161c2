// The stream problem (op, n) and its workload: counts, inputs and the check (workload.cpp).
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "kernels/stream/stream.hpp"
#include "tests/kernels/stream/points.hpp"

namespace memwall {
namespace {

using stream_test::point;

TEST(StreamProblem, FlopsAndStreamsCount) {
    EXPECT_EQ(StreamProblem::from(point("copy", 10)).flops(), 0);
    EXPECT_EQ(StreamProblem::from(point("scale", 10)).flops(), 10);
    EXPECT_EQ(StreamProblem::from(point("add", 10)).flops(), 10);
    EXPECT_EQ(StreamProblem::from(point("triad", 10)).flops(), 20);
    EXPECT_EQ(StreamProblem::from(point("copy", 10)).stream_bytes(), 80);
    EXPECT_EQ(StreamProblem::from(point("triad", 10)).stream_bytes(), 120);
    EXPECT_THROW(StreamProblem::from(point("fma", 10)), UsageError);
    EXPECT_THROW(StreamProblem::from(point("copy", 0)), UsageError);
}

TEST(StreamWorkload, InputsAreNeverZeroAndTheCheckCatchesWrongAndUnwritten) {
    const StreamWorkload w(StreamProblem::from(point("triad", 1000)), 7);
    std::vector<float> z(1000);
    for (int i = 0; i < 1000; ++i) {
        EXPECT_GE(w.x()[i], 1.0f);
        EXPECT_GE(w.y()[i], 1.0f);
        z[i] = w.x()[i] + kStreamScalar * w.y()[i];
    }
    const Check ok = w.check(z.data());
    EXPECT_TRUE(ok.ok) << ok.message;
    EXPECT_LT(ok.error, StreamWorkload::kTolerance);
    z[500] *= 1.001f;
    EXPECT_FALSE(w.check(z.data()).ok);
    z[500] = std::numeric_limits<float>::quiet_NaN();
    const Check nan = w.check(z.data());
    EXPECT_FALSE(nan.ok);
    EXPECT_EQ(nan.message, "z[500] is nan: not written or not finite");
}

}  // namespace
}  // namespace memwall
