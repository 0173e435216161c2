// Every CPU variant against the float64 reference on shapes that reach every edge of the tiled
// kernels: strides 1, 2 and 4, padding, non-square images, channel counts that are not a
// multiple of the vector width, filters wider than a register tile, and blockings at the limits;
// for each ISA the host runs (the AVX-512 path only where it has it).
#include <gtest/gtest.h>

#include <cstdlib>

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

// MEMWALL_ISA for one scope: the catalogue's tiles and the kernels a case prepares follow it.
class ActiveIsa {
  public:
    explicit ActiveIsa(Isa isa) {
        if (const char* v = std::getenv("MEMWALL_ISA")) saved_ = v;
        set_active_isa(isa);
    }
    ~ActiveIsa() { ::setenv("MEMWALL_ISA", saved_.c_str(), 1); }
    ActiveIsa(const ActiveIsa&) = delete;
    ActiveIsa& operator=(const ActiveIsa&) = delete;

  private:
    std::string saved_;
};

std::vector<Isa> host_isas() {
    if (host_isa() == Isa::avx512) return {Isa::avx2, Isa::avx512};
    return {Isa::avx2};
}

// The variant's case at `b` (the ISA's default blocking when b.kb is 0), run on the active ISA.
void expect_correct(const std::string& variant, const Shape& x, conv_cpu::Blocking b = {}) {
    if (b.kb == 0) b = conv_cpu::default_blocking(active_isa());
    Catalogue catalogue;
    register_conv(catalogue);
    const Params point = point_of(x, b);
    const auto w = catalogue.family("conv").make_workload(point, 11);
    const auto inst = catalogue.variant("conv", variant, Backend::cpu).prepare(*w, point);
    inst->poison();
    inst->run();
    const Check c = inst->check();
    EXPECT_TRUE(c.ok) << variant << " " << point.label() << " on " << isa_name(active_isa()) << ": " << c.message
                      << " (error " << c.error << ")";
}

const std::vector<Shape> shapes = {
    {1, 3, 13, 9, 20, 3, 3, 1, 1},    // C below the vector width, K not a multiple of it
    {2, 17, 11, 14, 33, 3, 3, 2, 1},  // two images, odd channels, stride 2
    {1, 5, 23, 19, 16, 5, 5, 4, 2},   // stride 4, padding 2
    {1, 6, 9, 31, 50, 7, 7, 1, 3},    // a 7x7 filter wider than small tiles, non-square
    {1, 4, 8, 8, 8, 1, 1, 1, 0},      // 1x1
    {1, 3, 6, 6, 48, 6, 6, 1, 0},     // the filter as large as the input: one output
    {1, 2, 7, 12, 5, 3, 2, 3, 1},     // R != S
    {1, 2, 25, 23, 9, 11, 11, 4, 0},  // an 11x11 filter at stride 4, as the paper's first layers
};

TEST(ConvCpuVariants, MatchTheReferenceOnEveryShape) {
    for (Isa isa : host_isas()) {
        const ActiveIsa active(isa);
        for (const char* v : {"direct", "im2col_gemm", "im2win", "onednn"})
            for (const Shape& x : shapes) expect_correct(v, x);
    }
}

TEST(ConvCpuVariants, BlockingsAtTheirLimits) {
    for (Isa isa : host_isas()) {
        const ActiveIsa active(isa);
        const int l = conv_cpu::lanes(isa), most = conv_cpu::max_accumulators(isa);
        const std::vector<conv_cpu::Blocking> blockings = {
            {l, 1, 1}, {l, most, 3}, {3 * l, most / 3, 2}, {2 * l, 5, 1000}};
        for (const char* v : {"direct", "im2win"})
            for (const auto& b : blockings)
                for (const Shape& x : {shapes[1], shapes[3]}) expect_correct(v, x, b);
    }
}

TEST(ConvCpuVariants, BlockingOutsideTheRegisterBudgetIsAUsageError) {
    for (Isa isa : {Isa::avx2, Isa::avx512}) {
        const int l = conv_cpu::lanes(isa), most = conv_cpu::max_accumulators(isa);
        EXPECT_THROW(conv_cpu::validate({l + 1, 4, 8}, isa), UsageError);
        EXPECT_THROW(conv_cpu::validate({4 * l, 1, 8}, isa), UsageError);
        EXPECT_THROW(conv_cpu::validate({3 * l, most, 8}, isa), UsageError);
        EXPECT_THROW(conv_cpu::validate({l, 4, 0}, isa), UsageError);
        EXPECT_NO_THROW(conv_cpu::validate({l, most, 1}, isa));
    }
    // Budgets of 16 and 32 registers, less 3 filter vectors and a broadcast.
    EXPECT_EQ(conv_cpu::max_accumulators(Isa::avx2), 12);
    EXPECT_EQ(conv_cpu::max_accumulators(Isa::avx512), 28);
}

TEST(ConvCpuVariants, ARowsTilesAreAsEvenAsTheyGo) {
    for (const std::int64_t q : {1, 2, 5, 12, 26, 55, 109, 222})
        for (const int wb : {1, 4, 6, 14, 28}) {
            const conv_cpu::ColumnTiles t = conv_cpu::column_tiles(q, wb);
            EXPECT_EQ(t.count, (q + wb - 1) / wb) << q << " " << wb;  // no more tiles than Wb needs
            EXPECT_EQ(t.wider * (t.width + 1) + (t.count - t.wider) * t.width, q) << q << " " << wb;
            EXPECT_LE(t.width + (t.wider > 0 ? 1 : 0), wb) << q << " " << wb;
            EXPECT_LT(t.wider, t.count) << q << " " << wb;
        }
    // 26 columns at Wb = 6: five tiles of 6, 5, 5, 5, 5 where a 2-column tail was.
    const conv_cpu::ColumnTiles t = conv_cpu::column_tiles(26, 6);
    EXPECT_EQ(t.count, 5);
    EXPECT_EQ(t.width, 5);
    EXPECT_EQ(t.wider, 1);
}

TEST(ConvCpuVariants, TheCatalogueDefaultsToTheActiveIsasTiles) {
    for (Isa isa : host_isas()) {
        const ActiveIsa active(isa);
        Catalogue catalogue;
        register_conv(catalogue);
        const auto& tunables = catalogue.variant("conv", "direct", Backend::cpu).tunables;
        const conv_cpu::Blocking def = conv_cpu::default_blocking(isa);
        ASSERT_EQ(tunables.size(), 3u);
        EXPECT_EQ(std::get<std::int64_t>(tunables[0].defaults.front()), def.kb) << isa_name(isa);
        EXPECT_EQ(std::get<std::int64_t>(tunables[1].defaults.front()), def.wb) << isa_name(isa);
        EXPECT_EQ(std::get<std::int64_t>(tunables[2].defaults.front()), def.cb) << isa_name(isa);
    }
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
    for (std::int64_t i = 0; i < row; ++i)
        EXPECT_EQ(win[static_cast<std::size_t>(row + i)], expected[static_cast<std::size_t>(i)]) << i;
    // Output row 0 covers the padding row and input row 0.
    EXPECT_EQ(win[2], 0.0f);
    EXPECT_EQ(win[3], 1.0f);
}

TEST(ConvIm2win, TheChannelsOfAnOutputRowAreSideBySide) {
    ConvProblem p;
    p.c = 2;
    p.h = p.w = 2;
    p.k = 1;
    std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8};  // channel 0 rows (1 2) (3 4), channel 1 (5 6) (7 8)
    std::vector<float> win(conv_cpu::im2win_floats(p), -1.0f);
    conv_cpu::im2win_transform(p, in.data(), win.data());
    // win[y][c][w]: output row 0 of both channels, then row 1.
    EXPECT_EQ(win, (std::vector<float>{1, 2, 5, 6, 3, 4, 7, 8}));
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
