#include "harness/sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "harness/interrupt.hpp"

using namespace memwall;

namespace {

// The toy variants are planned, never measured: a model without counters is enough.
std::vector<Counter> no_counters(const Params&, const MemoryHierarchy&) { return {}; }

Catalogue toy_catalogue() {
    Catalogue c;
    Family f;
    f.name = "toy";
    f.description = "test family";
    f.problem_axes = {int_axis("m", {1, 2}, ""), int_axis("k", {10, 20}, ""), int_axis("n", {5}, "")};
    f.zipped = {{"m", "k"}};
    f.make_workload = [](const Params&, std::uint64_t) { return std::make_unique<Workload>(); };
    c.add_family(std::move(f));
    Variant a;
    a.model = no_counters;
    a.name = "a";
    c.add_variant("toy", a);
    Variant b;
    b.model = no_counters;
    b.name = "b";
    b.tunables = {int_axis("t", {1, 4}, "")};
    b.constraints = {{"t <= n", [](const Params& p) { return p.integer("t") <= p.integer("n"); }}};
    c.add_variant("toy", b);
    return c;
}

std::vector<std::string> names(const std::vector<PlannedCase>& cs) {
    std::vector<std::string> out;
    for (const auto& c : cs) out.push_back(c.name());
    return out;
}

}  // namespace

TEST(Sweep, ExpandsProblemMajorWithZipsAndTunables) {
    Catalogue cat = toy_catalogue();
    SweepSpec spec;
    auto cases = expand_sweep(spec, cat);
    EXPECT_EQ(names(cases), (std::vector<std::string>{"toy/a/cpu/k=10,m=1,n=5", "toy/b/cpu/k=10,m=1,n=5/t=1",
                                                      "toy/b/cpu/k=10,m=1,n=5/t=4", "toy/a/cpu/k=20,m=2,n=5",
                                                      "toy/b/cpu/k=20,m=2,n=5/t=1", "toy/b/cpu/k=20,m=2,n=5/t=4"}));
}

TEST(Sweep, OverridesApplyToVariantsThatHaveTheAxis) {
    Catalogue cat = toy_catalogue();
    SweepSpec spec;
    spec.overrides = {"t=pow2:1:8", "n=6"};
    spec.unzip = true;
    spec.overrides.push_back("m=3");
    auto cases = expand_sweep(spec, cat);
    // m=3 x k in {10,20} x n=6; variant a once, variant b with t in {1,2,4} (8 > n pruned).
    EXPECT_EQ(cases.size(), 2u * (1u + 3u));
}

// A variant's own problem axes join its problems alone, as problem axes: the other variant's
// cases keep theirs, and an override of the axis reaches only the variant that has it.
TEST(Sweep, AVariantsOwnProblemAxesAreItsProblemsAlone) {
    Catalogue cat = toy_catalogue();
    Variant s;
    s.name = "sparse";
    s.model = no_counters;
    s.problem_axes = {real_axis("density", {0.5}, "")};
    cat.add_variant("toy", s);
    SweepSpec spec;
    spec.variants = {"a", "sparse"};
    spec.overrides = {"density=0.25,0.125", "m=1", "k=10"};
    const auto cases = expand_sweep(spec, cat);
    EXPECT_EQ(names(cases),
              (std::vector<std::string>{"toy/a/cpu/k=10,m=1,n=5", "toy/sparse/cpu/density=0.25,k=10,m=1,n=5",
                                        "toy/sparse/cpu/density=0.125,k=10,m=1,n=5"}));
    EXPECT_TRUE(cases[1].config.empty());  // a problem axis, not a tunable
}

TEST(Sweep, RejectsUnknownNamesAndEmptySweeps) {
    Catalogue cat = toy_catalogue();
    SweepSpec s1;
    s1.families = {"nope"};
    EXPECT_THROW(expand_sweep(s1, cat), UsageError);
    SweepSpec s2;
    s2.variants = {"zzz"};
    EXPECT_THROW(expand_sweep(s2, cat), UsageError);
    SweepSpec s3;
    s3.overrides = {"bogus=1"};
    EXPECT_THROW(expand_sweep(s3, cat), UsageError);
    SweepSpec s4;
    s4.overrides = {"m=1"};  // zipped with k, which still has two values
    EXPECT_THROW(expand_sweep(s4, cat), UsageError);
    SweepSpec s5;
    s5.variants = {"b"};
    s5.overrides = {"t=8"};  // every point violates t <= n
    EXPECT_THROW(expand_sweep(s5, cat), UsageError);
    SweepSpec s6;
    s6.backends = {Backend::cuda};  // no GPU on the machines this runs on
    if (!probe_backend(Backend::cuda).available) {
        EXPECT_THROW(expand_sweep(s6, cat), UsageError);
    }
}

// Row 4 of issue 44: a sweep of 249,500 points was expanded whole before the first case. A plan
// counts its cases without holding them and gives them a bounded batch at a time, problem-major.
TEST(Sweep, APlanGivesALargeSweepInBatchesOfProblemsEachCaseOnce) {
    Catalogue cat = toy_catalogue();
    SweepSpec spec;
    spec.unzip = true;
    spec.overrides = {"m=1:1000:1", "k=10"};
    const SweepPlan plan(spec, cat);
    EXPECT_EQ(plan.size(), 1000u * 3);  // a once, b with t = 1 and 4
    std::set<std::string> seen;
    std::size_t batches = 0;
    SweepPlan::Pass pass = plan.pass();
    for (auto batch = pass.next(); !batch.empty(); batch = pass.next()) {
        ++batches;
        ASSERT_EQ(batch.size(), 3 * std::min<std::size_t>(SweepPlan::kBatchProblems, 1000 - 64 * (batches - 1)));
        for (std::size_t i = 0; i < batch.size(); i += 3) {  // each problem's three cases together
            EXPECT_EQ(batch[i].variant->name, "a");
            EXPECT_EQ(batch[i + 2].problem, batch[i].problem);
        }
        for (const auto& c : batch) EXPECT_TRUE(seen.insert(c.name()).second) << c.name();
    }
    EXPECT_EQ(seen.size(), plan.size());
    EXPECT_EQ(batches, (1000 + SweepPlan::kBatchProblems - 1) / SweepPlan::kBatchProblems);
}

TEST(Sweep, PlanningStopsAtAnInterrupt) {
    Catalogue cat = toy_catalogue();
    const InterruptScope interrupts;
    stop_requested = true;  // as Ctrl-C while the plan walks its points
    EXPECT_THROW(SweepPlan(SweepSpec{}, cat), Interrupted);
}

TEST(Sweep, SpecRoundTripsThroughJson) {
    SweepSpec s;
    s.families = {"toy"};
    s.overrides = {"m=1,2"};
    s.zips = {{"m", "n"}};
    s.unzip = true;
    s.seed = 42;
    s.sampler.min_samples = 3;
    const SweepSpec r = SweepSpec::from_json(nlohmann::json::parse(s.to_json().dump()));
    EXPECT_EQ(r.to_json(), s.to_json());
    EXPECT_THROW(SweepSpec::from_json(nlohmann::json::parse(R"({"families": 3})")), InputError);
}
