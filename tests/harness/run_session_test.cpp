#include "harness/run_session.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/machine.hpp"
#include "harness/gbench.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

// The toy variants are planned, never measured: a model without counters is enough.
std::vector<Counter> no_counters(const Params&, const MemoryHierarchy&) { return {}; }

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
    EXPECT_EQ(s.ceilings().compute_peak("fp32_fma"), 1e12);
    s.finish(RunStatus::interrupted);
    EXPECT_EQ(store.run(s.id())->status, RunStatus::interrupted);
}

TEST(RunSession, ARunNamesTheDeviceItsCasesRanOn) {
    const std::string cpu = "AMD EPYC 7B13, 2 threads", gpu = "NVIDIA H100 80GB HBM3";
    EXPECT_EQ(run_device({Backend::cpu}, cpu, gpu), cpu);
    EXPECT_EQ(run_device({Backend::cuda_emu}, cpu, gpu), cpu);  // emulation times are the CPU's
    EXPECT_EQ(run_device({Backend::cuda}, cpu, gpu), gpu);
    EXPECT_EQ(run_device({Backend::cpu, Backend::cuda}, cpu, gpu), cpu + " + " + gpu);
    EXPECT_EQ(run_device({Backend::cuda}, cpu, ""), cpu);  // no GPU to name
    EXPECT_EQ(run_device({}, cpu, gpu), cpu);
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
    EXPECT_EQ(reused.ceilings().reused_from_run, first);
    EXPECT_EQ(store.ceilings(reused.id()).reused_from_run, first);
}

TEST(RunSession, RepeatedReuseCopiesTheMeasuredCeilingsWithTheirMethodUnchanged) {
    test::TempDir dir;
    Store store = Store::open(dir.file("s.db"), Store::Mode::create);
    const RunInfo info = run_info(SweepSpec{}, {}, Provenance::here("memwall run"), {});
    const std::int64_t measured =
        RunSession::begin(store, info, {Backend::cpu}, {.given_ceilings = two_ceilings()}).id();
    for (int i = 0; i < 3; ++i) {
        // Each run is the newest with ceilings, but a copy: the next one still copies the first.
        RunSession s = RunSession::begin(store, info, {Backend::cpu}, {.ceilings = CeilingsMode::reuse});
        const Ceilings c = store.ceilings(s.id());
        EXPECT_EQ(c.reused_from_run, measured);
        ASSERT_EQ(c.items.size(), 2u);
        EXPECT_EQ(c.items[0].method, "given");
        EXPECT_EQ(c.items[1].method, "given");
    }
}

TEST(RunSession, ReuseTakesTheNewestTrustedCeilingsAndNeverFlaggedOnes) {
    test::TempDir dir;
    Store store = Store::open(dir.file("s.db"), Store::Mode::create);
    const RunInfo info = run_info(SweepSpec{}, {}, Provenance::here("memwall run"), {});
    const std::string host = host_name();
    EXPECT_FALSE(choose_ceilings_to_reuse(store, host, 0).from);
    EXPECT_FALSE(choose_ceilings_to_reuse(store, host, 0).unreliable_only);

    Ceilings busy = two_ceilings();
    busy.items[1].unreliable = "measured while the machine was busy: the threads ran 55% of the time";
    const std::int64_t flagged = RunSession::begin(store, info, {Backend::cpu}, {.given_ceilings = busy}).id();
    // Only flagged ones stored: none to reuse, and which run has them, so the caller says why
    // it measures.
    ReuseChoice only = choose_ceilings_to_reuse(store, host, 0);
    EXPECT_FALSE(only.from);
    EXPECT_EQ(only.unreliable_only, flagged);

    const std::int64_t good = RunSession::begin(store, info, {Backend::cpu}, {.given_ceilings = two_ceilings()}).id();
    RunSession::begin(store, info, {Backend::cpu}, {.given_ceilings = busy});  // newer, flagged again
    EXPECT_EQ(choose_ceilings_to_reuse(store, host, 0).from, good);
    // A run never reuses its own ceilings.
    EXPECT_FALSE(choose_ceilings_to_reuse(store, host, good).from);
    // The flagged reason travels with the run's stored ceilings.
    EXPECT_FALSE(store.ceilings(flagged).reliable());
    EXPECT_EQ(store.ceilings(flagged).items[1].unreliable, busy.items[1].unreliable);
}

// The device properties an H100 recorded (2026-11-27).
std::map<std::string, std::string> h100_properties() {
    return {{"cuda.name", "NVIDIA H100 80GB HBM3"},
            {"cuda.compute_capability", "9.0"},
            {"cuda.sms", "132"},
            {"cuda.sm_clock_hz", "1980000000"},
            {"cuda.memory_bandwidth_bytes_per_s", "3352320000000"}};
}

TEST(RunSession, ACudaDevicesRoofsComeFromItsOwnProperties) {
    Ceilings host = two_ceilings();
    host.reused_from_run = 4;
    const Ceilings with = with_device_ceilings(host, h100_properties());
    ASSERT_EQ(with.items.size(), 6u);
    EXPECT_EQ(with.reused_from_run, 4);
    EXPECT_DOUBLE_EQ(with.find("dram")->value, 20e9);
    ASSERT_NE(with.find("cuda:dram"), nullptr);
    EXPECT_DOUBLE_EQ(with.find("cuda:dram")->value, 3352.32e9);
    ASSERT_NE(with.find("cuda:fp32_fma"), nullptr);
    EXPECT_NEAR(with.find("cuda:fp32_fma")->value, 66.9e12, 0.1e12);
    EXPECT_DOUBLE_EQ(with.for_backend("cuda").compute_peak("fp32_fma"), with.find("cuda:fp32_fma")->value);
    EXPECT_NEAR(with.for_backend("cuda").compute_peak("bf16_tensor"), 1070e12, 1e12);
    EXPECT_NEAR(with.for_backend("cuda").compute_peak("tf32_tensor"), 535e12, 1e12);
    EXPECT_DOUBLE_EQ(with.for_backend("cpu").compute_peak("fp32_fma"), 1e12);

    // Another run's device roofs never stay: a machine without a queried device has none.
    const Ceilings without = with_device_ceilings(with, {{"cuda.summary", "CUDA device 0 could not be queried"}});
    EXPECT_EQ(without.items.size(), 2u);
    EXPECT_TRUE(without.for_backend("cuda").empty());
    // Unreadable figures leave their ceiling out rather than failing the run.
    auto odd = h100_properties();
    odd["cuda.memory_bandwidth_bytes_per_s"] = "fast";
    const Ceilings partial = with_device_ceilings({}, odd);
    ASSERT_EQ(partial.items.size(), 3u);
    EXPECT_EQ(partial.items[0].name, "cuda:fp32_fma");
    EXPECT_EQ(partial.items[1].name, "cuda:bf16_tensor");
    EXPECT_EQ(partial.items[2].name, "cuda:tf32_tensor");
}

TEST(RunSession, ACudaDevicesMeasuredRoofsReplaceItsTheoreticalOnes) {
    gpu::MeasuredDeviceCeilings m;
    m.l1 = 20e12;
    m.l2 = 7e12;
    m.dram = 3e12;
    m.fp32_fma = 50e12;
    m.l1_working_set = 4.3e6;
    m.l2_working_set = 25 << 20;
    m.dram_working_set = 200 << 20;
    m.l1_capacity = 228 << 10;
    m.l2_capacity = 50 << 20;
    m.blocks = 528;
    m.threads = 256;
    m.launches = 5;
    const Ceilings c = with_device_ceilings(two_ceilings(), h100_properties(), &m).for_backend("cuda");
    ASSERT_EQ(c.items.size(), 6u);
    EXPECT_DOUBLE_EQ(c.find("dram")->value, 3e12);
    EXPECT_DOUBLE_EQ(c.find("l2")->capacity_bytes, 50 << 20);
    EXPECT_DOUBLE_EQ(c.compute_peak("fp32_fma"), 50e12);
    // The tensor cores' roofs are not measured: they stay the theoretical ones.
    for (const char* tensor : {"bf16_tensor", "tf32_tensor"}) {
        ASSERT_NE(c.find(tensor), nullptr) << tensor;
        EXPECT_NE(c.find(tensor)->method.find("theoretical"), std::string::npos) << tensor;
    }
    for (const Ceiling& x : c.items) {
        if (x.name == "bf16_tensor" || x.name == "tf32_tensor") continue;
        EXPECT_EQ(x.method.find("theoretical"), std::string::npos) << x.name;
        EXPECT_NE(x.method.find("measured on the device"), std::string::npos) << x.name;
    }
    EXPECT_NE(c.find("dram")->method.find("200 MiB"), std::string::npos) << c.find("dram")->method;
    // What was not measured is left out, not guessed.
    m.l1 = 0;
    EXPECT_EQ(with_device_ceilings({}, h100_properties(), &m).find("cuda:l1"), nullptr);
    // No device described: nothing, measured or not.
    EXPECT_TRUE(with_device_ceilings({}, {}, &m).empty());
}

TEST(RunSession, ARunOfCudaCasesAloneNeitherMeasuresNorReusesTheHostsCeilings) {
    test::TempDir dir;
    Store store = Store::open(dir.file("s.db"), Store::Mode::create);
    const RunInfo info = run_info(SweepSpec{}, {}, Provenance::here("memwall run"), {});
    RunSession::begin(store, info, {Backend::cpu}, {.given_ceilings = two_ceilings()});
    // No GPU here: the device is not described, so the run has no roofs at all (with the host's
    // ceilings it would reuse them, or spend half a minute measuring them).
    RunSession gpu = RunSession::begin(store, info, {Backend::cuda}, {.ceilings = CeilingsMode::reuse});
    EXPECT_TRUE(gpu.ceilings().for_backend("cpu").empty());
    // A run with host cases beside cuda still gets the host's.
    RunSession both = RunSession::begin(store, info, {Backend::cpu, Backend::cuda}, {.ceilings = CeilingsMode::reuse});
    EXPECT_EQ(both.ceilings().for_backend("cpu").items.size(), 2u);
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
    v.model = no_counters;
    v.name = "tiled";
    v.tunables = {tunable(int_axis("tile", {4}, "tile size"))};
    cat.add_variant("toy", v);
    SweepSpec spec;
    const SweepPlan plan(spec, cat);
    const RunInfo info = run_info(spec, plan.members(), Provenance::here("memwall run"), {});
    ASSERT_EQ(info.axes.size(), 3u);  // once each, however many cases
    EXPECT_EQ(info.axes[1].name, "fast");
    EXPECT_EQ(info.axes[1].kind, AxisKind::boolean);
    EXPECT_EQ(info.axes[2].name, "tile");
    EXPECT_EQ(info.axes[2].role, AxisRole::tunable);
}

}  // namespace
}  // namespace memwall

namespace memwall {
namespace {

// A family with memory of its own (kv_offload's tier) adds its ceilings for a run with its cases,
// asked once with its problems, replacing those of the same name; without its cases, nothing.
TEST(RunSession, FamiliesWithTheirOwnCeilingsAddThem) {
    Catalogue cat;
    Family f;
    f.name = "tiered";
    f.problem_axes = {int_axis("n", {1, 2}, "elements")};
    f.make_workload = [](const Params&, std::uint64_t) { return std::make_unique<Workload>(); };
    int calls = 0;
    std::size_t problems = 0;
    f.ceilings = [&](const Ceilings& have, const std::vector<Params>& ps) {
        ++calls;
        problems = ps.size();
        EXPECT_NE(have.find("dram"), nullptr);  // the run's own come first
        return std::vector<Ceiling>{{"tier.rand.4KiB", CeilingKind::bandwidth, 1e9, "B/s", "toy", 0},
                                    {"dram", CeilingKind::bandwidth, 30e9, "B/s", "toy", 0}};
    };
    cat.add_family(std::move(f));
    Variant v;
    v.model = no_counters;
    v.name = "plain";
    cat.add_variant("tiered", v);
    const auto cases = expand_sweep(SweepSpec{}, cat);

    const Ceilings all = with_family_ceilings(two_ceilings(), cases);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(problems, 2u);
    ASSERT_EQ(all.items.size(), 3u);
    EXPECT_EQ(all.find("dram")->value, 30e9);
    EXPECT_EQ(all.find("tier.rand.4KiB")->value, 1e9);
    EXPECT_EQ(all.find("fp32_fma")->value, 1e12);

    EXPECT_EQ(with_family_ceilings(two_ceilings(), {}).items.size(), 2u);
    EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace memwall
