#include "harness/sweep.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

using namespace memwall;

namespace {

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
    a.name = "a";
    c.add_variant("toy", a);
    Variant b;
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
    EXPECT_EQ(names(cases), (std::vector<std::string>{
                                "toy/a/cpu/k=10,m=1,n=5", "toy/b/cpu/k=10,m=1,n=5/t=1", "toy/b/cpu/k=10,m=1,n=5/t=4",
                                "toy/a/cpu/k=20,m=2,n=5", "toy/b/cpu/k=20,m=2,n=5/t=1", "toy/b/cpu/k=20,m=2,n=5/t=4"}));
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
