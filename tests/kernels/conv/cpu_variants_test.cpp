// Every CPU variant against the float64 reference on shapes that reach every edge of the tiled
// kernels: strides 1, 2 and 4, padding, non-square images, channel counts that are not a
// multiple of the vector width, filters wider than a register tile, and blockings at the limits.
#include <gtest/gtest.h>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "kernels/conv/blocking.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/conv/register.hpp"

namespace memwall {
namespace {

struct Shape {
    std::int64_t n, c, h, w, k, r, s, stride, pad;
};

Params point_of(const Shape& x, const conv_cpu::Blocking& b) {
    Params p;
    p.set("layer", std::string("custom"));
    p.set("batch", x.n);
    p.set("C", x.c);
    p.set("H", x.h);
    p.set("W", x.w);
    p.set("K", x.k);
    p.set("R", x.r);
    p.set("S", x.s);
    p.set("stride", x.stride);
    p.set("pad", x.pad);
    p.set("Kb", std::int64_t{b.kb});
    p.set("Wb", std::int64_t{b.wb});
    p.set("Cb", std::int64_t{b.cb});
    return p;
}

const Catalogue& catalogue() {
    static const Catalogue c = [] {
        Catalogue cat;
        register_conv(cat);
        return cat;
    }();
    return c;
}

void expect_correct(const std::string& variant, const Shape& x, const conv_cpu::Blocking& b = {}) {
    const Params point = point_of(x, b);
    const Family& f = catalogue().family("conv");
    const auto w = f.make_workload(point, 11);
    const auto inst = catalogue().variant("conv", variant, Backend::cpu).prepare(*w, point);
    inst->poison();
    inst->run();
    const Check c = inst->check();
    EXPECT_TRUE(c.ok) << variant << " " << point.label() << ": " << c.message << " (error " << c.error << ")";
}

const std::vector<Shape> shapes = {
    {1, 3, 13, 9, 20, 3, 3, 1, 1},    // C below the vector width, K not a multiple of it
    {2, 17, 11, 14, 33, 3, 3, 2, 1},  // two images, odd channels, stride 2
    {1, 5, 23, 19, 16, 5, 5, 4, 2},   // stride 4, padding 2
    {1, 6, 9, 31, 50, 7, 7, 1, 3},    // a 7x7 filter wider than small tiles, non-square
    {1, 4, 8, 8, 8, 1, 1, 1, 0},      // 1x1
    {1, 3, 6, 6, 48, 6, 6, 1, 0},     // the filter as large as the input: one output
    {1, 2, 7, 12, 5, 3, 2, 3, 1},     // R != S
};

TEST(ConvCpuVariants, MatchTheReferenceOnEveryShape) {
    for (const char* v : {"direct", "im2col_gemm", "im2win", "onednn"})
        for (const Shape& x : shapes) expect_correct(v, x);
}

TEST(ConvCpuVariants, BlockingsAtTheirLimits) {
    const int l = conv_cpu::lanes;
    const std::vector<conv_cpu::Blocking> blockings = {
        {l, 1, 1}, {l, conv_cpu::max_accumulators, 3}, {3 * l, conv_cpu::max_accumulators / 3, 2}, {2 * l, 5, 1000}};
    for (const char* v : {"direct", "im2win"})
        for (const auto& b : blockings)
            for (const Shape& x : {shapes[1], shapes[3]}) expect_correct(v, x, b);
}

TEST(ConvCpuVariants, BlockingOutsideTheRegisterBudgetIsAUsageError) {
    const int l = conv_cpu::lanes;
    EXPECT_THROW(conv_cpu::validate({l + 1, 4, 8}), UsageError);
    EXPECT_THROW(conv_cpu::validate({4 * l, 1, 8}), UsageError);
    EXPECT_THROW(conv_cpu::validate({3 * l, conv_cpu::max_accumulators, 8}), UsageError);
    EXPECT_THROW(conv_cpu::validate({l, 4, 0}), UsageError);
    EXPECT_NO_THROW(conv_cpu::validate({l, conv_cpu::max_accumulators, 1}));
}

TEST(ConvIm2win, TheWindowOfAnOutputIsOneContiguousRun) {
    ConvProblem p;
    p.c = 1;
    p.h = 4;
    p.w = 3;
    p.k = 1;
    p.r = 2;
    p.s = 2;
    p.stride = 1;
    p.pad = 1;
    std::vector<float> in(p.input_size());
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i + 1);
    std::vector<float> win(conv_cpu::im2win_floats(p), -1.0f);
    conv_cpu::im2win_transform(p, in.data(), win.data());
    const std::int64_t row = (p.w + 2 * p.pad) * p.r;  // 10
    ASSERT_EQ(win.size(), static_cast<std::size_t>(p.p() * row));
    // Output row 1 covers input rows 0 and 1; padded column w holds (in[0][w-1], in[1][w-1]).
    const std::vector<float> expected = {0, 0, 1, 4, 2, 5, 3, 6, 0, 0};
    for (std::int64_t i = 0; i < row; ++i) EXPECT_EQ(win[static_cast<std::size_t>(row + i)], expected[static_cast<std::size_t>(i)]) << i;
    // Output row 0 covers the padding row and input row 0.
    EXPECT_EQ(win[2], 0.0f);
    EXPECT_EQ(win[3], 1.0f);
}

TEST(ConvIm2col, ColumnsHoldEachWindowInFilterOrder) {
    ConvProblem p;
    p.c = 1;
    p.h = 3;
    p.w = 3;
    p.k = 1;
    p.r = 2;
    p.s = 2;
    p.stride = 1;
    p.pad = 0;
    std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::vector<float> col(conv_cpu::im2col_floats(p));
    conv_cpu::im2col_transform(p, in.data(), col.data());
    // Row (r, s) of the buffer, column (y, q): in[y + r][q + s].
    const std::vector<float> expected = {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9};
    EXPECT_EQ(col, expected);
}

}  // namespace
}  // namespace memwall
