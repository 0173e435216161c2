#include "harness/run_session.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/gbench.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

Ceilings two_ceilings() {
    Ceilings c;
    c.items = {{"dram", CeilingKind::bandwidth, 20e9, "B/s", "given", 0},
               {"fp32_fma", CeilingKind::compute, 1e12, "FLOP/s", "given", 0}};
    return c;
}

TEST(RunSession, BeginsARunWithItsProvenanceDevicesAndCeilings) {
    test::TempDir dir;
    Store store = Store::open(dir.file("s.db"), Store::Mode::create);
    SweepSpec spec;
    spec.backends = {Backend::cpu, Backend::cuda_emu};
    const RunInfo info = run_info(spec, {}, {"h", "abc123", "9.9", "memwall run"}, {{"branch", "main"}});
    EXPECT_EQ(info.backend, "cpu,cuda-emu");
    EXPECT_FALSE(info.sweep.empty());

    RunSession s = RunSession::begin(store, info, spec.backends, {.given_ceilings = two_ceilings()});
    const RunInfo stored = *store.run(s.id());
    EXPECT_EQ(stored.status, RunStatus::running);
    EXPECT_EQ(stored.host, "h");
    EXPECT_EQ(stored.git_revision, "abc123");
    EXPECT_EQ(stored.tags.at("branch"), "main");
    const auto props = store.run_properties(s.id());
    EXPECT_TRUE(props.count("cpu.summary"));
    EXPECT_TRUE(props.count("cuda-emu.summary"));
    EXPECT_EQ(store.ceilings(s.id()).items.size(), 2u);
    EXPECT_EQ(s.ceilings().peak_flops(), 1e12);
    s.finish(RunStatus::interrupted);
    EXPECT_EQ(store.run(s.id())->status, RunStatus::interrupted);
}

TEST(RunSession, ResumingKeepsTheRunsCeilingsAndNoneMeansNone) {
    test::TempDir dir;
    Store store = Store::open(dir.file("s.db"), Store::Mode::create);
    const RunInfo info = run_info(SweepSpec{}, {}, Provenance::here("memwall run"), {});
    const std::int64_t first = RunSession::begin(store, info, {Backend::cpu}, {.given_ceilings = two_ceilings()}).id();
    // Resumed with --ceilings none: the run's own ceilings stay.
    RunSession again = RunSession::resume(store, first, {Backend::cpu}, {.ceilings = CeilingsMode::none});
    EXPECT_EQ(again.ceilings().items.size(), 2u);
    // A new run with none has none.
    RunSession bare = RunSession::begin(store, info, {Backend::cpu}, {.ceilings = CeilingsMode::none});
    EXPECT_TRUE(store.ceilings(bare.id()).empty());
    // reuse copies this host's newest and names the run it came from.
    RunSession reused = RunSession::begin(store, info, {Backend::cpu}, {.ceilings = CeilingsMode::reuse});
    ASSERT_EQ(reused.ceilings().items.size(), 2u);
    EXPECT_NE(reused.ceilings().items[0].method.find("reused from run " + std::to_string(first)), std::string::npos);
}

TEST(RunSession, TagsCeilingModesAndGoogleBenchmarkFlagsAreValidated) {
    EXPECT_EQ(parse_tags({"a=1", "b=x=y"}).at("b"), "x=y");
    EXPECT_THROW(parse_tags({"novalue"}), UsageError);
    EXPECT_THROW(parse_tags({"=1"}), UsageError);
    EXPECT_EQ(ceilings_mode_from("measure"), CeilingsMode::measure);
    EXPECT_THROW(ceilings_mode_from("sometimes"), UsageError);

    const GbenchFlags f = gbench_flags({"--benchmark_repetitions=5", "--benchmark_format=json"});
    EXPECT_EQ(f.repetitions, 5);
    EXPECT_TRUE(f.own_report);
    EXPECT_EQ(gbench_flags({}).repetitions, 1);
    EXPECT_THROW(gbench_flags({"--benchmark_repetitions=0"}), UsageError);
    EXPECT_THROW(gbench_flags({"--benchmark_repetitions=5x"}), UsageError);
}

}  // namespace
}  // namespace memwall

namespace memwall {
namespace {

TEST(RunSession, TheRunKeepsTheAxesOfItsFamiliesAndVariants) {
    Catalogue cat;
    Family f;
    f.name = "toy";
    f.problem_axes = {int_axis("n", {1, 2}, "elements"), bool_axis("fast", {false}, "a flag")};
    f.make_workload = [](const Params&, std::uint64_t) { return std::make_unique<Workload>(); };
    cat.add_family(std::move(f));
    Variant v;
    v.name = "tiled";
    v.tunables = {tunable(int_axis("tile", {4}, "tile size"))};
    cat.add_variant("toy", v);
    SweepSpec spec;
    const auto cases = expand_sweep(spec, cat);
    const RunInfo info = run_info(spec, cases, Provenance::here("memwall run"), {});
    ASSERT_EQ(info.axes.size(), 3u);  // once each, however many cases
    EXPECT_EQ(info.axes[1].name, "fast");
    EXPECT_EQ(info.axes[1].kind, AxisKind::boolean);
    EXPECT_EQ(info.axes[2].name, "tile");
    EXPECT_EQ(info.axes[2].role, AxisRole::tunable);
}

}  // namespace
}  // namespace memwall
