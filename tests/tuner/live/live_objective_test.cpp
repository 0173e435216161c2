#include "tuner/live/live_objective.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>

#include "core/errors.hpp"
#include "tuner/strategy.hpp"
#include "kernels/register_builtin.hpp"

namespace memwall {
namespace {

// A toy kernel whose tunable t decides how it behaves: 1 is right and slow, 2 is fastest but
// wrong, 3 throws, 4 is right and fast.
struct ToyWorkload final : Workload {};

class ToyInstance final : public Instance {
  public:
    explicit ToyInstance(std::int64_t t) : t_(t) {}
    void poison() override { out_ = std::numeric_limits<double>::quiet_NaN(); }
    void run() override {
        if (t_ == 3) throw std::runtime_error("t=3 does not fit");
        if (t_ == 1) std::this_thread::sleep_for(std::chrono::milliseconds(3));
        if (t_ == 4) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        out_ = t_ == 2 ? 0.0 : 42.0;
    }
    Check check() const override {
        Check c;
        c.ok = out_ == 42.0;
        c.error = c.ok ? 0 : 1;
        c.tolerance = 1e-4;
        return c;
    }

  private:
    std::int64_t t_;
    double out_ = 0;
};

Catalogue toy_catalogue() {
    Catalogue cat;
    Family f;
    f.name = "toy";
    f.problem_axes = {int_axis("n", {5, 6}, "size")};
    f.make_workload = [](const Params&, std::uint64_t) -> std::unique_ptr<Workload> {
        return std::make_unique<ToyWorkload>();
    };
    cat.add_family(std::move(f));
    Variant v;
    v.name = "v";
    Axis t = tunable(int_axis("t", {4}, "behaviour"));
    v.tunables = {bounded(t, 1, 4)};
    v.prepare = [](const Workload&, const Params& p) -> std::unique_ptr<Instance> {
        return std::make_unique<ToyInstance>(p.integer("t"));
    };
    v.model = [](const Params& p, const MemoryHierarchy&) {
        return std::vector<Counter>{{"flops", static_cast<double>(p.integer("n")), "FLOP", CounterSource::model}};
    };
    cat.add_variant("toy", std::move(v));
    return cat;
}

LiveOptions quick() {
    LiveOptions o;
    o.measure.sampler.warmup_runs = 0;
    o.measure.sampler.min_samples = 3;
    o.measure.sampler.min_time = 0;
    return o;
}

TEST(LiveObjective, FailuresAreRecordedWithWhyAndWrongResultsAreNeverBest) {
    const Catalogue cat = toy_catalogue();
    const LiveTarget target = live_target(cat, "toy", "v", Backend::cpu, {});
    EXPECT_EQ(target.space.size(), 4u);  // 1, 2, 3 (midpoint), 4
    EXPECT_EQ(target.problem.integer("n"), 5);
    LiveObjective objective(target, MemoryHierarchy{}, quick());
    auto exhaustive = make_strategy("exhaustive", target.space, 1);
    const Trace trace = tune(objective, *exhaustive, {}, {}, Confirmation{0});  // first measurements only
    ASSERT_EQ(trace.entries.size(), 4u);

    auto entry = [&](std::int64_t t) -> const TraceEntry& {
        for (const auto& e : trace.entries)
            if (target.space.params(e.config).integer("t") == t) return e;
        throw std::logic_error("not evaluated");
    };
    EXPECT_EQ(entry(2).evaluation.status, EvalStatus::failed);
    EXPECT_EQ(entry(2).evaluation.reason.rfind("wrong result: rel. L2 error 1", 0), 0u) << entry(2).evaluation.reason;
    EXPECT_EQ(entry(3).evaluation.status, EvalStatus::runtime_failed);
    EXPECT_EQ(entry(3).evaluation.reason, "t=3 does not fit");
    EXPECT_GT(entry(3).evaluation.cost_seconds, 0);

    const Evaluation& fast = entry(4).evaluation;
    ASSERT_TRUE(fast.ok());
    EXPECT_GE(fast.samples.size(), 3u);
    std::vector<double> sorted = fast.samples;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_DOUBLE_EQ(fast.seconds, summarize(sorted).median);
    ASSERT_NE(find_counter(fast.counters, "flops"), nullptr);
    EXPECT_EQ(find_counter(fast.counters, "flops")->value, 5);

    const auto best = trace.best();
    ASSERT_TRUE(best);
    EXPECT_EQ(target.space.params(trace.entries[*best].config).integer("t"), 4);
}

CaseRecord ok_record() {
    CaseRecord r;
    r.status = CaseStatus::ok;
    r.samples = {{0.5, 0.7, 0.6}};
    r.summary = summarize(r.samples[0]);
    r.counters = {
        {"flops", 67e9, "FLOP", CounterSource::model},
        {"bytes.dram", 1e9, "B", CounterSource::model},
        {"dram__bytes_read.sum", 3.35e9, "B", CounterSource::emu},
        {"dram__bytes_write.sum", 0, "B", CounterSource::emu},
        {"lts__t_bytes.sum", 5e9, "B", CounterSource::emu},
    };
    return r;
}

TEST(LiveObjective, OnCudaEmuTheTimeIsTheNamedRooflineNotTheEmulation) {
    const DeviceSpec& h100 = *find_device_spec("H100 SXM");
    const Evaluation e = evaluation_of(ok_record(), Backend::cuda_emu, &h100);
    ASSERT_TRUE(e.ok());
    EXPECT_DOUBLE_EQ(e.seconds, 1e-3);  // 3.35 GB over 3.35 TB/s, not the 0.6 s emulated
    EXPECT_TRUE(e.samples.empty());
    // The emu counters and the FLOPs drive the search; the CPU byte model does not.
    EXPECT_EQ(e.counters.size(), 4u);
    EXPECT_EQ(find_counter(e.counters, "bytes.dram"), nullptr);

    const Evaluation cpu = evaluation_of(ok_record(), Backend::cpu, nullptr);
    EXPECT_DOUBLE_EQ(cpu.seconds, 0.6);
    EXPECT_EQ(cpu.samples.size(), 3u);
    EXPECT_EQ(cpu.counters.size(), 5u);

    CaseRecord no_traffic = ok_record();
    no_traffic.counters.resize(2);
    const Evaluation f = evaluation_of(no_traffic, Backend::cuda_emu, &h100);
    EXPECT_EQ(f.status, EvalStatus::failed);
    EXPECT_NE(f.reason.find("emu traffic"), std::string::npos);
}

TEST(LiveObjective, BesideAnAnchorEachSampleIsScaledByItsPairsRatio) {
    CaseRecord r = ok_record();
    r.samples = {{2.0, 4.0, 6.0}};
    r.anchor_samples = {1.0, 2.0, 2.0};  // ratios 2, 2, 3
    const Evaluation e = evaluation_of(r, Backend::cpu, nullptr, 10.0);
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e.samples, (std::vector<double>{20.0, 20.0, 30.0}));
    EXPECT_DOUBLE_EQ(e.seconds, 20.0);                                        // not the 4 of the samples' own median
    EXPECT_THROW(evaluation_of(r, Backend::cpu, nullptr), std::logic_error);  // no scale
}

TEST(LiveObjective, TheAnchorIsMeasuredAloneFirstAndEveryConfigurationBesideIt) {
    const Catalogue cat = toy_catalogue();
    const LiveTarget target = live_target(cat, "toy", "v", Backend::cpu, {"t=1,4"});
    EXPECT_EQ(target.anchor.label(), "t=4");  // the variant's default, though the space has it too
    LiveOptions o = quick();
    Params slow;
    slow.set("t", std::int64_t{1});
    o.measure.anchor = slow;
    LiveObjective objective(target, MemoryHierarchy{}, o);
    ASSERT_TRUE(objective.anchor_seconds());
    EXPECT_GE(*objective.anchor_seconds(), 3e-3);  // t=1 sleeps 3 ms
    for (std::size_t i = 0; i < target.space.size(); ++i) {
        const Evaluation e = objective.evaluate(i);
        ASSERT_TRUE(e.ok()) << e.reason;
        EXPECT_GE(e.samples.size(), 3u);
        std::vector<double> sorted = e.samples;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_DOUBLE_EQ(e.seconds, summarize(sorted).median);
    }
}

TEST(LiveObjective, AnAnchorThatFailsIsRefusedBeforeAnyConfigurationIsMeasured) {
    const Catalogue cat = toy_catalogue();
    const LiveTarget target = live_target(cat, "toy", "v", Backend::cpu, {});
    LiveOptions o = quick();
    Params throws;
    throws.set("t", std::int64_t{3});
    o.measure.anchor = throws;
    try {
        LiveObjective objective(target, MemoryHierarchy{}, o);
        FAIL() << "a failing anchor was accepted";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "the anchor t=3 (every configuration is timed beside it) failed: t=3 does not fit");
    }
}

TEST(LiveObjective, FlashOnCudaEmuIsPredictedForTheNamedDevice) {
    Catalogue cat;
    register_builtin_kernels(cat);
    const LiveTarget target = live_target(
        cat, "attention", "flash", Backend::cuda_emu,
        {"heads=1", "seq_q=32", "seq_k=32", "head_dim=64", "causal=0", "dtype=fp32", "Br=16,32", "Bc=16", "warps=1"});
    ASSERT_EQ(target.space.size(), 2u);
    LiveOptions o;
    o.predict_for = find_device_spec("A100");
    LiveObjective objective(target, detect_memory_hierarchy(), o);
    for (std::size_t i = 0; i < 2; ++i) {
        const Evaluation e = objective.evaluate(i);
        ASSERT_TRUE(e.ok()) << e.reason;
        EXPECT_TRUE(e.samples.empty());
        const auto p = predict_roofline(*o.predict_for, e.counters);
        ASSERT_TRUE(p);
        EXPECT_DOUBLE_EQ(e.seconds, p->seconds);
        ASSERT_NE(find_counter(e.counters, "lts__t_bytes.sum"), nullptr);
        EXPECT_EQ(find_counter(e.counters, "lts__t_bytes.sum")->source, CounterSource::emu);
    }
}

}  // namespace
}  // namespace memwall
