// attention/flash_blocksparse on the CPU: flash's kernel on a masked problem, each ISA's build,
// against the float64 reference with masked blocks at -inf; the model's visited panels; the
// variant in the catalogue (its own problem axes, the validator, the tiles that nest).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/register.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {
namespace {

Params point(std::int64_t sq, std::int64_t sk, const std::string& mask, bool causal, std::int64_t block = 64,
             double density = 0.25) {
    return attention_test::with_mask(attention_test::problem_point(2, 1, sq, sk, 64, causal, "fp32"), mask, block, 1,
                                     density);
}

std::vector<float> run_flash(const AttentionProblem& p, const AttentionWorkload& w, FlashTiles t, Isa isa) {
    std::vector<float> o(p.q_size(), std::numeric_limits<float>::quiet_NaN());
    std::vector<float> packed(flash_workspace_floats(p, t), std::numeric_limits<float>::quiet_NaN());
    const float *q = w.q().data(), *k = w.k().data(), *v = w.v().data();
    if (isa == Isa::avx512)
        attention_flash<Isa::avx512>(p, t, q, k, v, o.data(), packed.data());
    else
        attention_flash<Isa::avx2>(p, t, q, k, v, o.data(), packed.data());
    return o;
}

const char* const masks[] = {"local", "global", "random", "butterfly"};

// Lengths no tile divides, s_q above and below s_k, causal or not; tiles smaller than the block
// (several per block) and equal to it.
TEST(FlashBlocksparse, EveryMaskMatchesTheReferenceOnEachIsa) {
    for (Isa isa : {Isa::avx2, Isa::avx512}) {
        if (isa == Isa::avx512 && host_isa() != Isa::avx512) continue;
        const FlashTiles tiles[] = {{32, 32}, {64, 64}};
        for (const FlashTiles t : tiles)
            for (const char* mask : masks)
                for (bool causal : {false, true})
                    for (auto [sq, sk] : {std::pair<std::int64_t, std::int64_t>{300, 300}, {130, 330}, {330, 130}}) {
                        SCOPED_TRACE(std::string(isa_name(isa)) + " " + mask + " Br=" + std::to_string(t.br) +
                                     " Bc=" + std::to_string(t.bc) + " s_q=" + std::to_string(sq) +
                                     " s_k=" + std::to_string(sk) + (causal ? " causal" : ""));
                        const AttentionWorkload w(AttentionProblem::from(point(sq, sk, mask, causal)), 11);
                        const Check c = w.check(run_flash(w.problem(), w, t, isa).data());
                        EXPECT_TRUE(c.ok) << c.message;
                        EXPECT_LT(c.error, 1e-5);
                    }
    }
}

// The check sees the mask: dense flash, or another seed's random mask, fails it.
TEST(FlashBlocksparse, AnotherMaskFailsTheCheck) {
    const AttentionWorkload w(AttentionProblem::from(point(512, 512, "random", false, 64, 0.5)), 11);
    AttentionProblem dense = w.problem();
    dense.mask = {};
    EXPECT_FALSE(w.check(run_flash(dense, w, {64, 64}, Isa::avx2).data()).ok);
    AttentionProblem other = w.problem();
    other.mask.seed += 1;
    EXPECT_FALSE(w.check(run_flash(other, w, {64, 64}, Isa::avx2).data()).ok);
    EXPECT_TRUE(w.check(run_flash(w.problem(), w, {64, 64}, Isa::avx2).data()).ok);
}

TEST(FlashBlocksparse, TilesMustNestInTheBlocks) {
    const AttentionWorkload w(AttentionProblem::from(point(256, 256, "local", false, 64)), 1);
    try {
        run_flash(w.problem(), w, {128, 64}, Isa::avx2);
        ADD_FAILURE() << "Br = 128 over blocks of 64 accepted";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "attention/flash_blocksparse: Br and Bc must divide block (64), got Br=128 Bc=64");
    }
}

// The model reads the K and V panels of kept tiles only: a quarter of dense flash's re-reads at
// density 1/4 (random, whose rows vary) and exactly the band for local.
TEST(FlashBlocksparse, ModelCountsTheVisitedPanels) {
    // Caches smaller than a head's packed K and V, so every re-read reaches dram.
    MemoryHierarchy mh;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 64 << 10, 1}, {"llc", 256 << 10, 2}};
    mh.cpus = 2;
    const FlashTiles t{64, 64};
    const AttentionProblem local = AttentionProblem::from(point(2048, 2048, "local", false, 128));
    AttentionProblem dense = local;
    dense.mask = {};
    auto bytes = [&](const AttentionProblem& p, const char* level) {
        return find_counter(flash_model(p, t, mh), level)->value;
    };
    // Every query tile reads its head's packed K panels (whole) and V keys: 2 * 64 per tile; 16
    // blocks a row, local keeps 3 (2 at the ends), two tiles per block.
    const double per_tile_keys = 2.0 * 64;
    const double local_tiles = (16 * 3 - 2) * 2.0 * 2 /* query tiles per block */;
    const double dense_tiles = 16 * 16 * 2.0 * 2;
    const double kv_per_key = 64 * 4.0 * 2 /* heads */;
    const double packed_and_compulsory = bytes(dense, "bytes.dram") - dense_tiles * per_tile_keys * kv_per_key;
    EXPECT_DOUBLE_EQ(bytes(local, "bytes.dram") - local_tiles * per_tile_keys * kv_per_key, packed_and_compulsory);
    EXPECT_EQ(find_counter(flash_model(local, t, mh), "bytes.min")->value,
              find_counter(flash_model(dense, t, mh), "bytes.min")->value);
    EXPECT_EQ(find_counter(flash_model(local, t, mh), "flops")->value, attention_flops(local));
    EXPECT_LT(attention_flops(local), attention_flops(dense) * 3 / 16 + 1);
}

Catalogue attention_catalogue() {
    Catalogue c;
    register_attention(c);
    return c;
}

TEST(FlashBlocksparse, VariantHasTheMaskAxesAndFlashsTiles) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    const Variant& v = c.variant("attention", "flash_blocksparse", Backend::cpu);
    std::vector<std::string> names;
    for (const Axis& a : v.problem_axes) names.push_back(a.name);
    EXPECT_EQ(names, (std::vector<std::string>{"mask", "block", "window", "density"}));
    ASSERT_EQ(v.tunables.size(), 2u);
    EXPECT_EQ(v.tunables[0].name, "Br");
    EXPECT_EQ(v.tunables[1].name, "Bc");
    const Space s = f.space(v);
    EXPECT_EQ(s.find("mask")->role, AxisRole::problem);
    // Three zipped lengths, two head dims, causal or not, four masks.
    EXPECT_EQ(s.points().size(), 3u * 2 * 2 * 4);
    Params nested = point(256, 256, "local", false, 128);
    nested.set("Br", std::int64_t{128});
    nested.set("Bc", std::int64_t{64});
    EXPECT_EQ(s.violated(nested), nullptr);
    nested.set("block", std::int64_t{64});
    ASSERT_NE(s.violated(nested), nullptr);
    EXPECT_NE(s.violated(nested)->description.find("divide block"), std::string::npos);
    // Dense variants' problems have no mask axes.
    EXPECT_EQ(f.space(c.variant("attention", "flash", Backend::cpu)).find("mask"), nullptr);
    // The family's validator refuses a density outside (0, 1] with one line.
    Params zero = point(256, 256, "random", false, 64, 0.0);
    EXPECT_THROW(f.validate(zero), UsageError);
    EXPECT_NO_THROW(f.validate(point(256, 256, "random", false)));
}

TEST(FlashBlocksparse, VariantRunsChecksAndModelsTheWorkloadsMask) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    const Variant& v = c.variant("attention", "flash_blocksparse", Backend::cpu);
    MemoryHierarchy mh = detect_memory_hierarchy();
    for (const char* mask : masks) {
        Params p = point(200, 200, mask, true);
        p.set("Br", std::int64_t{32});
        p.set("Bc", std::int64_t{64});
        const auto w = f.make_workload(p, 8);
        auto inst = v.prepare(*w, p);
        inst->poison();
        inst->run();
        const Check chk = inst->check();
        EXPECT_TRUE(chk.ok) << mask << ": " << chk.message;
        const auto model = v.input_model(*w, p, mh);
        EXPECT_EQ(find_counter(model, "flops")->value, attention_flops(workload_as<AttentionWorkload>(*w).problem()));
    }
    Params bad = point(200, 200, "local", false);
    bad.set("Br", std::int64_t{128});
    bad.set("Bc", std::int64_t{64});
    const auto w = f.make_workload(bad, 8);
    EXPECT_THROW(v.prepare(*w, bad), UsageError);
}

}  // namespace
}  // namespace memwall
