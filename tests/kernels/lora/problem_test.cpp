#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "kernels/lora/lora.hpp"
#include "lora_test_support.hpp"

namespace memwall {
namespace {

using lora_test::point_of;
using lora_test::Shape;

TEST(LoraProblem, ReadsItsAxesAndCountsFlops) {
    const LoraProblem p = LoraProblem::from(point_of({64, 100, 80, 16, 3, 0.25, 2, "bf16"}));
    EXPECT_EQ(p.m, 64);
    EXPECT_EQ(p.dtype, LoraDtype::bf16);
    EXPECT_EQ(p.element_bytes(), 2u);
    EXPECT_EQ(p.mask_words(), 4);  // 100 bits
    EXPECT_DOUBLE_EQ(p.lora_scale(), 2.0 / 0.75);
    EXPECT_DOUBLE_EQ(p.flops(), 2.0 * 64 * 100 * 80 + 2.0 * 64 * 100 * 16 + 2.0 * 64 * 16 * 80);
    // Three adapters over 64 tokens: 21, 21 and 22 tokens, in order.
    EXPECT_EQ(p.segment_begin(0), 0);
    EXPECT_EQ(p.segment_begin(1), 21);
    EXPECT_EQ(p.segment_begin(2), 42);
    EXPECT_EQ(p.segment_begin(3), 64);
}

TEST(LoraProblem, RefusesMalformedProblems) {
    EXPECT_THROW(LoraProblem::from(point_of({4, 8, 8, 2, 5})), UsageError);       // more adapters than tokens
    EXPECT_THROW(LoraProblem::from(point_of({4, 8, 8, 0, 1})), UsageError);       // rank 0
    EXPECT_THROW(LoraProblem::from(point_of({4, 8, 8, 2, 1, 1.0})), UsageError);  // dropout 1
    EXPECT_THROW(LoraProblem::from(point_of({4, 8, 8, 2, 1, -0.1})), UsageError);
    Params bad = point_of({4, 8, 8, 2, 1});
    bad.set("dtype", std::string("fp16"));
    EXPECT_THROW(LoraProblem::from(bad), UsageError);
}

TEST(LoraRegister, LoraFusionShapesArePresetsAndMIsSweptApart) {
    const Family& f = lora_test::catalogue().family("lora");
    for (const char* v : {"base", "unfused", "fused", "multi_adapter"})
        EXPECT_NE(f.find(v, Backend::cpu), nullptr) << v;
    Space s = f.space(*f.find("fused", Backend::cpu));
    s.apply_override("shape=lorafusion4096,lorafusion8192");
    s.apply_override("M=2048,4096");
    const auto points = s.points();
    ASSERT_EQ(points.size(), 4u);
    for (const Params& p : points) {
        EXPECT_EQ(p.integer("K"), p.integer("N"));
        EXPECT_EQ(p.integer("r"), 16);
        EXPECT_DOUBLE_EQ(p.real("alpha"), 16.0);
        EXPECT_DOUBLE_EQ(p.real("dropout"), 0.1);
    }
    EXPECT_THROW(s.check_not_shadowed("K"), UsageError);  // every swept shape sets K
}

}  // namespace
}  // namespace memwall
