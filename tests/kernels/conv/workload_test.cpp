#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/conv/conv.hpp"

namespace memwall {
namespace {

ConvProblem problem(std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t r, std::int64_t stride,
                    std::int64_t pad) {
    return {1, c, h, w, k, r, r, stride, pad};
}

TEST(ConvReference, CountsTheTapsInsideThePaddedInput) {
    // All ones, 3x3 filter, pad 1: each output is the number of its taps inside the 4x5 input.
    const ConvProblem p = problem(2, 4, 5, 1, 3, 1, 1);
    std::vector<float> in(p.input_size(), 1.0f), f(p.filter_size(), 1.0f);
    std::vector<double> out(p.output_size());
    conv_reference(p, in.data(), f.data(), out.data());
    EXPECT_EQ(out[0], 2 * 4.0);          // corner
    EXPECT_EQ(out[1], 2 * 6.0);          // top edge
    EXPECT_EQ(out[1 * 5 + 1], 2 * 9.0);  // inside
    EXPECT_EQ(out[3 * 5 + 4], 2 * 4.0);  // bottom-right corner
}

TEST(ConvReference, StrideSkipsRowsAndColumns) {
    // One channel, 1x1 filter of 2, stride 2: out[y][q] = 2 in[2y][2q].
    const ConvProblem p = problem(1, 5, 5, 1, 1, 2, 0);
    std::vector<float> in(p.input_size()), f = {2.0f};
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    std::vector<double> out(p.output_size());
    conv_reference(p, in.data(), f.data(), out.data());
    ASSERT_EQ(out.size(), 9u);
    EXPECT_EQ(out[4], 2 * in[2 * 5 + 2]);
    EXPECT_EQ(out[8], 2 * in[4 * 5 + 4]);
}

TEST(ConvWorkload, InputsAreNeverZeroAndTheCheckCatchesWrongOutputs) {
    const ConvProblem p = problem(5, 9, 7, 6, 3, 2, 1);
    const ConvWorkload w(p, 7);
    for (std::size_t i = 0; i < p.input_size(); ++i) EXPECT_GE(std::abs(w.input()[i]), 0.25f);
    std::vector<double> ref(p.output_size());
    conv_reference(p, w.input(), w.filter(), ref.data());
    std::vector<float> out(ref.begin(), ref.end());
    EXPECT_TRUE(w.check(out.data()).ok) << w.check(out.data()).message;
    out[3] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(w.check(out.data()).ok);
    out[3] = static_cast<float>(ref[3]);
    // One tap of one output missing: an error of about 1/sqrt(45 outputs) of the norm.
    out[10] -= w.input()[0] * w.filter()[0] + 0.5f;
    EXPECT_FALSE(w.check(out.data()).ok);
}

}  // namespace
}  // namespace memwall
