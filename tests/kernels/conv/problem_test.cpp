#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "kernels/conv/conv.hpp"

namespace memwall {
namespace {

Params shape(std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t r, std::int64_t s,
             std::int64_t stride, std::int64_t pad) {
    Params p;
    p.set("layer", std::string("custom"));
    p.set("batch", std::int64_t{2});
    p.set("C", c);
    p.set("H", h);
    p.set("W", w);
    p.set("K", k);
    p.set("R", r);
    p.set("S", s);
    p.set("stride", stride);
    p.set("pad", pad);
    return p;
}

TEST(ConvProblem, OutputSizeFlopsAndCompulsoryBytes) {
    const ConvProblem p = ConvProblem::from(shape(3, 10, 7, 5, 3, 2, 2, 1));
    EXPECT_EQ(p.p(), (10 + 2 - 3) / 2 + 1);  // 5
    EXPECT_EQ(p.q(), (7 + 2 - 2) / 2 + 1);   // 4
    EXPECT_DOUBLE_EQ(p.flops(), 2.0 * 2 * 5 * 3 * 3 * 2 * 5 * 4);
    EXPECT_DOUBLE_EQ(p.min_bytes(), 4.0 * (2 * 3 * 10 * 7 + 5 * 3 * 3 * 2 + 2 * 5 * 5 * 4));
}

TEST(ConvProblem, MalformedShapesAreUsageErrors) {
    EXPECT_THROW(ConvProblem::from(shape(0, 8, 8, 4, 3, 3, 1, 0)), UsageError);
    EXPECT_THROW(ConvProblem::from(shape(3, 8, 8, 4, 3, 3, 0, 0)), UsageError);
    EXPECT_THROW(ConvProblem::from(shape(3, 8, 8, 4, 3, 3, 1, -1)), UsageError);
    EXPECT_THROW(ConvProblem::from(shape(3, 4, 8, 4, 7, 7, 1, 1)), UsageError);  // 7 rows > 4 + 2
    EXPECT_THROW(ConvProblem::from(shape(3, 8, 8, 4, 3, 3, 1, 3)), UsageError);  // pad >= R
    EXPECT_NO_THROW(ConvProblem::from(shape(3, 4, 4, 4, 6, 6, 1, 1)));           // 6 = 4 + 2 fits
    try {
        ConvProblem::from(shape(3, 4, 8, 4, 7, 7, 1, 1));
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("larger than the padded 6x10 input"), std::string::npos) << e.what();
    }
}

TEST(ConvProblem, ValidColumnsKeepEveryTapInside) {
    for (std::int64_t stride : {1, 2, 4})
        for (std::int64_t pad : {0, 1, 2}) {
            const ConvProblem p = ConvProblem::from(shape(1, 9, 9, 1, 5, 5, stride, pad));
            for (std::int64_t s = 0; s < p.s; ++s) {
                const auto [first, last] = conv_valid_columns(p, s);
                for (std::int64_t q = 0; q < p.q(); ++q) {
                    const std::int64_t col = q * stride + s - pad;
                    EXPECT_EQ(q >= first && q < last, col >= 0 && col < p.w)
                        << stride << " " << pad << " " << s << " " << q;
                }
            }
        }
}

TEST(ConvLayers, TheTwelveLayersOfTheIm2winPaper) {
    const auto& layers = conv_layers();
    ASSERT_EQ(layers.size(), 12u);
    EXPECT_STREQ(layers[0].name, "conv1");
    EXPECT_EQ(layers[7].c, 64);  // conv8: 64x112x112, 128 filters 3x3, stride 1
    EXPECT_EQ(layers[7].h, 112);
    EXPECT_EQ(layers[7].k, 128);
    EXPECT_EQ(layers[7].r, 3);
    const auto presets = conv_layer_presets();
    ASSERT_EQ(presets.size(), 12u);
    EXPECT_EQ(presets[3].value, "conv4");
    EXPECT_EQ(presets[3].sets.label(), "C=32,H=224,K=64,R=7,S=7,W=224,pad=0,stride=2");
}

}  // namespace
}  // namespace memwall
