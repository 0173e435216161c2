#include "tuner/live/live_tuning.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/machine.hpp"
#include "kernels/attention/attention.hpp"
#include "tests/support/builtin_catalogue.hpp"

namespace memwall {
namespace {

std::vector<std::int64_t> ints(const std::vector<Value>& vs) {
    std::vector<std::int64_t> out;
    for (const auto& v : vs) out.push_back(std::get<std::int64_t>(v));
    return out;
}

const Catalogue& builtin() { return testing::builtin_catalogue(); }

// The values of flash's default Bc range on this CPU: the ladder's multiples of its vector width.
std::size_t flash_bc_values() {
    const std::int64_t lanes = flash_cols_granule();
    std::size_t n = 0;
    for (std::int64_t v : {8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}) n += v >= lanes && v % lanes == 0;
    return n;
}

TEST(LiveTuning, DefaultRangesArePowersOfTwoAndMidpointsWithinTheBounds) {
    const Axis br = bounded(tunable(int_axis("Br", {32}, "rows")), 8, 256);
    EXPECT_EQ(ints(default_tuning_values(br, true)),
              (std::vector<std::int64_t>{8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}));
    EXPECT_EQ(ints(default_tuning_values(br, false)), (std::vector<std::int64_t>{8, 16, 32, 64, 128, 256}));
    const Axis splits = bounded(tunable(int_axis("num_splits", {8}, "splits")), 1, 6);
    EXPECT_EQ(ints(default_tuning_values(splits, true)), (std::vector<std::int64_t>{1, 2, 3, 4, 6}));
    EXPECT_TRUE(default_tuning_values(tunable(int_axis("unbounded", {1}, "x")), true).empty());
    EXPECT_EQ(default_tuning_values(tunable(bool_axis("flag", {false}, "x")), true).size(), 2u);
}

TEST(LiveTuning, FlashOnCpuSearchesItsTilesAtOneProblem) {
    const LiveTarget t =
        live_target(builtin(), "attention", "flash", Backend::cpu, {"seq_q=2048", "seq_k=2048", "head_dim=64"});
    EXPECT_EQ(t.variant->name, "flash");
    EXPECT_EQ(t.problem.integer("seq_q"), 2048);
    EXPECT_EQ(t.problem.integer("head_dim"), 64);
    // causal was left open with two values: the first valid one is taken, and said so.
    EXPECT_EQ(t.defaulted.label(), "causal=0");
    EXPECT_EQ(t.ranged, (std::vector<std::string>{"Br", "Bc"}));
    // Br: multiples of 8 in 8..256 (10), Bc: multiples of the vector width in it..256 (8 of
    // 16 with AVX-512, 10 of 8 with AVX2), from the ladder; values no valid configuration uses
    // (Br=12) are dropped.
    const std::int64_t lanes = flash_cols_granule();
    ASSERT_EQ(t.space.parameters().size(), 2u);
    EXPECT_EQ(t.space.parameters()[0].values.size(), 10u);
    EXPECT_EQ(t.space.parameters()[1].values.size(), flash_bc_values());
    EXPECT_EQ(t.space.size(), 10u * flash_bc_values());
    for (std::size_t i = 0; i < t.space.size(); ++i) {
        const Params p = t.space.params(i);
        EXPECT_EQ(p.integer("Br") % 8, 0);
        EXPECT_EQ(p.integer("Bc") % lanes, 0);
    }
    // What a noisy backend times every configuration beside: the variant's default tiles.
    EXPECT_EQ(t.anchor.label(), "Bc=128,Br=128");
    ASSERT_TRUE(t.anchor_id);
    EXPECT_EQ(t.space.params(*t.anchor_id).label(), "Bc=128,Br=128");
}

TEST(LiveTuning, GivenTunableValuesAreSearchedAsGiven) {
    const LiveTarget t = live_target(builtin(), "attention", "flash", Backend::cpu,
                                     {"seq_q=256", "seq_k=256", "head_dim=64", "causal=1", "Br=16,32"});
    EXPECT_TRUE(t.defaulted.empty());
    EXPECT_EQ(t.ranged, (std::vector<std::string>{"Bc"}));
    EXPECT_EQ(t.space.size(), 2u * flash_bc_values());
}

// A catalogue of one toy family (problem axis n) with one variant "v" of these tunables and
// constraints; it is never run, only its space is read.
Catalogue toy_catalogue(std::vector<Axis> tunables, std::vector<Constraint> constraints = {}) {
    Catalogue cat;
    Family f;
    f.name = "toy";
    f.problem_axes = {int_axis("n", {3}, "size")};
    f.make_workload = [](const Params&, std::uint64_t) -> std::unique_ptr<Workload> { return nullptr; };
    cat.add_family(std::move(f));
    Variant v;
    v.name = "v";
    v.tunables = std::move(tunables);
    v.constraints = std::move(constraints);
    v.prepare = [](const Workload&, const Params&) -> std::unique_ptr<Instance> { return nullptr; };
    v.model = [](const Params&, const MemoryHierarchy&) { return std::vector<Counter>{}; };
    cat.add_variant("toy", std::move(v));
    return cat;
}

TEST(LiveTuning, TheAnchorIsTheSpacesFirstConfigurationWhereTheDefaultIsNotValid) {
    Axis t = tunable(int_axis("t", {4}, "tile"));
    const Catalogue cat = toy_catalogue({bounded(t, 1, 8)},
                                        {{"t <= n", [](const Params& p) { return p.integer("t") <= p.integer("n"); }}});
    EXPECT_EQ(live_target(cat, "toy", "v", Backend::cpu, {"n=8"}).anchor.label(), "t=4");
    // The default t=4 does not fit n=3: the tiles the user gave do.
    const LiveTarget small = live_target(cat, "toy", "v", Backend::cpu, {"n=3", "t=2,3"});
    EXPECT_EQ(small.space.size(), 2u);
    EXPECT_EQ(small.anchor.label(), "t=2");
    EXPECT_EQ(small.anchor_id, std::optional<std::size_t>{0});
    // A default the user's values leave out of the space is still the anchor, but no start.
    const LiveTarget given = live_target(cat, "toy", "v", Backend::cpu, {"n=8", "t=2,3"});
    EXPECT_EQ(given.anchor.label(), "t=4");
    EXPECT_FALSE(given.anchor_id);
}

TEST(LiveTuning, LargeDefaultSpacesDropTheMidpoints) {
    // cuda-emu flash: Br, Bc in 16..128 and warps in 1..32; with midpoints it exceeds the cap.
    const LiveTarget t = live_target(builtin(), "attention", "flash", Backend::cuda_emu, {"dtype=fp32", "causal=0"});
    EXPECT_LE(t.space.size(), kMaxDefaultConfigurations);
    EXPECT_GT(t.space.size(), 20u);
    for (const auto& p : t.space.parameters())
        for (const auto& v : p.values) {
            const auto x = std::get<std::int64_t>(v);
            EXPECT_EQ(x & (x - 1), 0) << p.name << "=" << x;
        }
}

// Tuning never picks its best from a space without the configuration run untuned: the default
// value stays in a range even where the midpoints are dropped (conv im2win's Wb=6 on AVX2).
TEST(LiveTuning, TheDefaultRangesHoldTheVariantsDefaultValues) {
    Axis t = tunable(int_axis("t", {6}, "tile")), u = tunable(int_axis("u", {4}, "tile"));
    const Catalogue cat = toy_catalogue({bounded(t, 1, 256), bounded(u, 1, 256)});
    // With midpoints, 16 x 16 values: over the cap, so powers of two alone, and t's default.
    const LiveTarget target = live_target(cat, "toy", "v", Backend::cpu, {});
    ASSERT_EQ(target.space.parameters().size(), 2u);
    EXPECT_EQ(ints(target.space.parameters()[0].values),
              (std::vector<std::int64_t>{1, 2, 4, 6, 8, 16, 32, 64, 128, 256}));
    EXPECT_EQ(ints(target.space.parameters()[1].values), (std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
    EXPECT_EQ(target.anchor.label(), "t=6,u=4");
}

TEST(LiveTuning, BadRequestsAreUsageErrors) {
    const auto& c = builtin();
    EXPECT_THROW(live_target(c, "attention", "naive", Backend::cpu, {}), UsageError);  // no tunables
    EXPECT_THROW(live_target(c, "nope", "flash", Backend::cpu, {}), UsageError);
    EXPECT_THROW(live_target(c, "attention", "nope", Backend::cpu, {}), UsageError);
    EXPECT_THROW(live_target(c, "attention", "flash", Backend::cpu, {"foo=1"}), UsageError);
    EXPECT_THROW(live_target(c, "attention", "flash", Backend::cpu, {"Br=abc"}), UsageError);
    EXPECT_THROW(live_target(c, "attention", "flash", Backend::cpu, {"seq_q=1024"}), UsageError);  // tied to seq_k
    EXPECT_THROW(live_target(c, "attention", "flash", Backend::cpu, {"seq_q=512,1024", "seq_k=512,1024"}),
                 UsageError);                                                                 // one problem per session
    EXPECT_THROW(live_target(c, "attention", "flash", Backend::cpu, {"Br=12"}), UsageError);  // constrained away
}

TEST(LiveTuning, TheDeviceIsTheMachineOrThePredictedGpu) {
    EXPECT_EQ(tuning_device(Backend::cpu, nullptr), cpu_description());
    EXPECT_EQ(tuning_device(Backend::cuda_emu, find_device_spec("A100")), "A100 SXM4 80GB");
}

}  // namespace
}  // namespace memwall
