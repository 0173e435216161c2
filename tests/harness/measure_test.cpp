// measure_case beside an anchor: the case's samples and the anchor's alternate, one of each per
// pair, and an anchor that fails its check fails the case with its reason.
#include "harness/measure.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace memwall {
namespace {

struct Toy final : Workload {};

// Right for every value of the tunable `fails` but 1, where its run throws.
class ToyInstance final : public Instance {
  public:
    explicit ToyInstance(bool fails) : fails_(fails) {}
    void poison() override { out_ = std::numeric_limits<double>::quiet_NaN(); }
    void run() override {
        if (fails_) throw std::runtime_error("this configuration does not fit");
        out_ = 42;
    }
    Check check() const override { return {out_ == 42, out_ == 42 ? 0.0 : 1.0, 1e-6, ""}; }

  private:
    bool fails_;
    double out_ = 0;
};

struct Fixture : ::testing::Test {
    Fixture() {
        family.name = "toy";
        family.problem_axes = {int_axis("n", {1}, "size")};
        variant.name = "v";
        variant.backend = Backend::cpu;
        variant.tunables = {tunable(int_axis("fails", {0}, "1: its run throws"))};
        variant.prepare = [](const Workload&, const Params& p) -> std::unique_ptr<Instance> {
            return std::make_unique<ToyInstance>(p.integer("fails") == 1);
        };
        variant.model = [](const Params&, const MemoryHierarchy&) { return std::vector<Counter>{}; };
        problem.set("n", std::int64_t{1});
    }
    PlannedCase planned(std::int64_t fails) const {
        Params config;
        config.set("fails", fails);
        return {&family, &variant, problem, config};
    }
    static MeasureOptions quick(std::int64_t anchor_fails) {
        MeasureOptions o;
        o.sampler.warmup_runs = 1;
        o.sampler.min_samples = 5;
        o.sampler.min_time = 0;
        Params anchor;
        anchor.set("fails", anchor_fails);
        o.anchor = anchor;
        return o;
    }
    Family family;
    Variant variant;
    Params problem;
    Toy workload;
};

TEST_F(Fixture, BesideAnAnchorEachSampleHasTheAnchorsSampleTakenWithIt) {
    MeasureOptions opt = quick(0);
    std::vector<std::string> stages;
    opt.stage = [&](std::string_view s) { stages.emplace_back(s); };
    const CaseRecord r = measure_case(planned(0), workload, MemoryHierarchy{}, opt);
    ASSERT_EQ(r.status, CaseStatus::ok) << r.message;
    ASSERT_EQ(r.samples.size(), 1u);
    EXPECT_GE(r.samples[0].size(), 5u);
    EXPECT_EQ(r.anchor_samples.size(), r.samples[0].size());
    EXPECT_EQ(r.summary.n, r.samples[0].size());
    EXPECT_EQ(stages, (std::vector<std::string>{"check", "anchor", "warm-up", "sampling"}));
}

TEST_F(Fixture, WithoutAnAnchorNoAnchorSamples) {
    MeasureOptions opt = quick(0);
    opt.anchor.reset();
    const CaseRecord r = measure_case(planned(0), workload, MemoryHierarchy{}, opt);
    ASSERT_EQ(r.status, CaseStatus::ok) << r.message;
    EXPECT_TRUE(r.anchor_samples.empty());
}

TEST_F(Fixture, AnAnchorThatFailsFailsTheCaseWithItsReasonAndTimesNothing) {
    const CaseRecord r = measure_case(planned(0), workload, MemoryHierarchy{}, quick(1));
    EXPECT_EQ(r.status, CaseStatus::failed);
    EXPECT_EQ(r.message, "its anchor fails=1: this configuration does not fit");
    EXPECT_TRUE(r.samples.empty());
    EXPECT_TRUE(r.anchor_samples.empty());
}

}  // namespace
}  // namespace memwall
