#include <gtest/gtest.h>

#include <set>

#include "kernels/conv/blocking.hpp"
#include "kernels/conv/cpu_kernels.hpp"
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

ConvProblem conv12() {
    ConvProblem p;
    p.c = p.k = 512;
    p.h = p.w = 7;
    p.r = p.s = 3;
    return p;
}

MemoryHierarchy two_cores() {
    MemoryHierarchy mh;
    mh.cpus = 2;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    return mh;
}

// The ISA's default tiles, as the catalogue's cases have them.
conv_cpu::Blocking tiles() { return conv_cpu::default_blocking(active_isa()); }

double value(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* c = find_counter(cs, name);
    EXPECT_NE(c, nullptr) << name;
    return c ? c->value : 0;
}

TEST(ConvModels, WorkspaceIsEachVariantsTransform) {
    const ConvProblem p = conv8();
    const MemoryHierarchy mh = two_cores();
    const double im2win = 4.0 * 2 * 64 * 110 * 112 * 3, im2col = 4.0 * 2 * 64 * 9 * 110 * 110;
    EXPECT_DOUBLE_EQ(value(im2win_model(p, tiles(), mh), counters::kWorkspace), im2win);
    EXPECT_DOUBLE_EQ(value(im2col_gemm_model(p, mh), counters::kWorkspace), im2col);
    EXPECT_DOUBLE_EQ(value(direct_model(p, tiles(), mh), counters::kWorkspace), 0);
    // The paper's claim in the model: about S/stride times less than im2col for a 3x3 layer.
    EXPECT_LT(im2win / im2col, 0.4);
    const double packed = 4.0 * 128 * 64 * 9;  // K a multiple of the vector width
    EXPECT_DOUBLE_EQ(value(direct_model(p, tiles(), mh), conv_counters::kPackedFilter), packed);
    EXPECT_DOUBLE_EQ(value(im2col_gemm_model(p, mh), conv_counters::kPackedFilter), 0);
}

TEST(ConvModels, EveryVariantCountsTheSameFlopsAndAtLeastTheCompulsoryBytes) {
    const ConvProblem p = conv8();
    const MemoryHierarchy mh = two_cores();
    for (const auto& cs :
         {direct_model(p, tiles(), mh), im2win_model(p, tiles(), mh), im2col_gemm_model(p, mh), onednn_model(p, mh)}) {
        EXPECT_DOUBLE_EQ(value(cs, counters::kFlops), p.flops());
        EXPECT_DOUBLE_EQ(value(cs, counters::kBytesMin), p.min_bytes());
        EXPECT_GE(value(cs, counters::bytes_at("llc")), p.min_bytes());
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

// Runs repeat: input, filter and output come from the last-level cache where all a run touches
// fits there, from DRAM where it does not (conv12's 9.4 MB filter was counted from DRAM on a
// host with a 480 MiB LLC, and its cases read up to 255% of the DRAM roof).
TEST(ConvModels, CompulsoryBytesComeFromTheLevelThatHoldsTheRun) {
    const ConvProblem p = conv12();
    MemoryHierarchy large = two_cores(), small = two_cores();
    large.caches.back().bytes = std::size_t{480} << 20;
    small.caches.back().bytes = std::size_t{8} << 20;
    auto models = [&](const MemoryHierarchy& mh) {
        return std::vector{direct_model(p, tiles(), mh), im2win_model(p, tiles(), mh), im2col_gemm_model(p, mh),
                           onednn_model(p, mh)};
    };
    for (const auto& cs : models(large)) {
        EXPECT_EQ(value(cs, counters::bytes_at("dram")), 0);
        EXPECT_GE(value(cs, counters::bytes_at("llc")), p.min_bytes());
    }
    for (const auto& cs : models(small)) EXPECT_GE(value(cs, counters::bytes_at("dram")), p.min_bytes());
}

// Floats the direct kernel's tiles (cpu_tiles.hpp, pad 0) read from the input and the packed
// filter, walked tile by tile: each input value once per tile that reads it (its taps broadcast
// from L1 after that), each filter vector of the tile's channel step once per tile.
double walked_tile_floats(const ConvProblem& p, const conv_cpu::Blocking& b) {
    const int lanes = conv_cpu::lanes(active_isa());
    const conv_cpu::ColumnTiles tiles = conv_cpu::column_tiles(p.q(), b.wb);
    double floats = 0;
    for (std::int64_t k0 = 0; k0 < p.k; k0 += b.kb) {
        const std::int64_t kv = (std::min<std::int64_t>(b.kb, p.k - k0) + lanes - 1) / lanes;
        for (std::int64_t n = 0; n < p.n; ++n)
            for (std::int64_t y = 0; y < p.p(); ++y)
                for (std::int64_t t = 0, q0 = 0; t < tiles.count; ++t) {
                    const std::int64_t q1 = q0 + tiles.width + (t < tiles.wider ? 1 : 0);
                    std::set<std::int64_t> columns;  // of one input row
                    for (std::int64_t q = q0; q < q1; ++q)
                        for (std::int64_t s = 0; s < p.s; ++s) columns.insert(q * p.stride + s);
                    floats += static_cast<double>(p.c * p.r) * static_cast<double>(columns.size());
                    floats += static_cast<double>(kv * lanes * p.c * p.r * p.s);
                    q0 = q1;
                }
    }
    return floats;
}

// A tile brings each input value it needs into L1 once, and its taps broadcast from there: the
// model's traffic beyond L1 is the tiles' spans, not one read per broadcast (which counted up
// to S x Wb / ((Wb - 1) x stride + S) times too many bytes, 2.6x for a 3x3 filter, and put
// conv cases above their L2 roof).
TEST(ConvModels, TilesReadTheirSpanFromBeyondL1OncePerTile) {
    MemoryHierarchy mh;  // an L1 too small for a tile, an L2 that holds everything
    mh.cpus = 1;
    mh.caches = {{"l1", 256, 1}, {"l2", std::size_t{1} << 30, 1}};
    const conv_cpu::Blocking b = tiles();
    // One k tile and one channel step, so no stream but the tiles' own and the compulsory bytes
    // (the run fits in L2) reaches L2.
    for (const auto& [r, stride] : {std::pair{3, 1}, {5, 2}, {1, 2}, {7, 4}}) {
        ConvProblem p;
        p.c = 5;
        p.h = 17;
        p.w = 61;
        p.k = b.kb - 3;
        p.r = p.s = r;
        p.stride = stride;
        const double expected = 4.0 * walked_tile_floats(p, b);
        const auto direct = direct_model(p, b, mh);
        EXPECT_NEAR(value(direct, counters::bytes_at("l2")) - p.min_bytes(), expected, 1e-9 * expected)
            << "R=S=" << r << " stride " << stride;
        // im2win's taps read as many floats from its window rows; its transform writes the
        // tensor and reads it back besides.
        const auto im2win = im2win_model(p, b, mh);
        const double transform = 2.0 * 4.0 * static_cast<double>(conv_cpu::im2win_floats(p));
        EXPECT_NEAR(value(im2win, counters::bytes_at("l2")) - p.min_bytes() - transform, expected, 1e-9 * expected)
            << "R=S=" << r << " stride " << stride;
    }
}

}  // namespace
}  // namespace memwall
