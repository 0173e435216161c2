#include <gtest/gtest.h>

#include "kernels/conv/blocking.hpp"
#include "kernels/conv/models.hpp"

namespace memwall {
namespace {

ConvProblem conv8() {
    ConvProblem p;
    p.n = 2;
    p.c = 64;
    p.h = p.w = 112;
    p.k = 128;
    p.r = p.s = 3;
    return p;
}

MemoryHierarchy two_cores() {
    MemoryHierarchy mh;
    mh.cpus = 2;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    return mh;
}

double value(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* c = find_counter(cs, name);
    EXPECT_NE(c, nullptr) << name;
    return c ? c->value : 0;
}

TEST(ConvModels, WorkspaceIsEachVariantsTransform) {
    const ConvProblem p = conv8();
    const MemoryHierarchy mh = two_cores();
    const double im2win = 4.0 * 2 * 64 * 110 * 112 * 3, im2col = 4.0 * 2 * 64 * 9 * 110 * 110;
    EXPECT_DOUBLE_EQ(value(im2win_model(p, {}, mh), counters::workspace), im2win);
    EXPECT_DOUBLE_EQ(value(im2col_gemm_model(p, mh), counters::workspace), im2col);
    EXPECT_DOUBLE_EQ(value(direct_model(p, {}, mh), counters::workspace), 0);
    // The paper's claim in the model: about S/stride times less than im2col for a 3x3 layer.
    EXPECT_LT(im2win / im2col, 0.4);
    const double packed = 4.0 * 128 * 64 * 9;  // K a multiple of the vector width
    EXPECT_DOUBLE_EQ(value(direct_model(p, {}, mh), conv_counters::packed_filter), packed);
    EXPECT_DOUBLE_EQ(value(im2col_gemm_model(p, mh), conv_counters::packed_filter), 0);
}

TEST(ConvModels, EveryVariantCountsTheSameFlopsAndAtLeastTheCompulsoryBytes) {
    const ConvProblem p = conv8();
    const MemoryHierarchy mh = two_cores();
    for (const auto& cs : {direct_model(p, {}, mh), im2win_model(p, {}, mh), im2col_gemm_model(p, mh), onednn_model(p, mh)}) {
        EXPECT_DOUBLE_EQ(value(cs, counters::flops), p.flops());
        EXPECT_DOUBLE_EQ(value(cs, counters::bytes_min), p.min_bytes());
        EXPECT_GE(value(cs, counters::bytes_at("dram")), p.min_bytes());
        EXPECT_GE(value(cs, counters::bytes_at("l1")), value(cs, counters::bytes_at("dram")));
    }
}

TEST(ConvModels, SmallerChannelStepsMovePartialSumsThroughTheOutput) {
    const ConvProblem p = conv8();
    const MemoryHierarchy mh = two_cores();
    const double whole = value(direct_model(p, {32, 12, 64}, mh), counters::bytes_at("l1"));
    const double steps = value(direct_model(p, {32, 12, 8}, mh), counters::bytes_at("l1"));
    EXPECT_NEAR(steps - whole, 2.0 * 7 * 4.0 * static_cast<double>(p.output_size()), 1.0);
}

}  // namespace
}  // namespace memwall
