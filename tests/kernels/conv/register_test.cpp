#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "kernels/conv/register.hpp"

namespace memwall {
namespace {

Catalogue conv() {
    Catalogue c;
    register_conv(c);
    return c;
}

TEST(ConvRegister, CpuVariantsAndTheLayerPresets) {
    const Catalogue c = conv();
    const Family& f = c.family("conv");
    for (const char* v : {"direct", "im2col_gemm", "im2win", "onednn"})
        EXPECT_NE(f.find(v, Backend::cpu), nullptr) << v;
    EXPECT_EQ(f.presets.size(), 12u);
    // The default sweep is the paper's twelve layers, each with its own shape.
    const auto points = f.space(*f.find("direct", Backend::cpu)).points();
    ASSERT_EQ(points.size(), 12u);
    EXPECT_EQ(points[7].str("layer"), "conv8");
    EXPECT_EQ(points[7].integer("C"), 64);
    EXPECT_EQ(points[7].integer("pad"), 0);
}

TEST(ConvRegister, ACustomShapeSweepsItsAxesAndAPresetIgnoresThem) {
    const Catalogue c = conv();
    const Family& f = c.family("conv");
    Space s = f.space(*f.find("im2win", Backend::cpu));
    EXPECT_THROW(s.check_not_shadowed("C"), UsageError);  // every default layer is a preset
    s.apply_override("layer=custom,conv12");
    s.apply_override("C=3,5");
    EXPECT_NO_THROW(s.check_not_shadowed("C"));
    const auto points = s.points();
    ASSERT_EQ(points.size(), 3u);  // custom with C=3 and C=5, conv12 once
    EXPECT_EQ(points[2].integer("C"), 512);
}

TEST(ConvRegister, AMalformedShapeStopsTheSweepWithOneLine) {
    const Catalogue c = conv();
    const Family& f = c.family("conv");
    Space s = f.space(*f.find("direct", Backend::cpu));
    s.apply_override("layer=custom");
    s.apply_override("H=2");
    s.apply_override("W=2");
    s.apply_override("R=5");
    s.apply_override("S=5");
    try {
        (void)s.points();
        FAIL() << "a 5x5 filter over a padded 4x4 input was accepted";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("larger than the padded 4x4 input"), std::string::npos) << e.what();
    }
}

TEST(ConvRegister, AWorkspaceLargerThanMemoryIsRefusedBeforeAllocation) {
    const Catalogue c = conv();
    const Family& f = c.family("conv");
    // A 128x128 filter over 256x256 images: a 70 GB im2col buffer for 17 MB of input.
    Space s = f.space(*f.find("im2col_gemm", Backend::cpu));
    for (const char* o : {"layer=custom", "C=64", "H=256", "W=256", "K=1", "R=128", "S=128", "pad=0"})
        s.apply_override(o);
    const Params point = s.points().front();
    const auto w = f.make_workload(point, 1);
    try {
        (void)f.find("im2col_gemm", Backend::cpu)->prepare(*w, point);
        FAIL() << "a 70 GB workspace was allocated";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("workspace needs 65"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace memwall
