#include "harness/shard.hpp"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "kernels/register_builtin.hpp"

using namespace memwall;

namespace {

// Every case of the plan's passes, by name, in order.
std::vector<std::string> names_of(const SweepPlan& plan) {
    std::vector<std::string> out;
    SweepPlan::Pass pass = plan.pass();
    for (auto batch = pass.next(); !batch.empty(); batch = pass.next())
        for (const PlannedCase& c : batch) out.push_back(c.name());
    return out;
}

SweepSpec stream_sweep() {
    SweepSpec s;
    s.families = {"stream"};
    s.overrides = {"n=pow2:1024:1048576"};
    return s;
}

}  // namespace

TEST(Shard, ParsesIndexOverCount) {
    EXPECT_EQ(parse_shard("0/4"), (Shard{0, 4}));
    EXPECT_EQ(parse_shard("3/4"), (Shard{3, 4}));
    EXPECT_EQ(to_string(Shard{2, 5}), "2/5");
    for (const char* bad : {"4/4", "1/0", "-1/4", "1", "/4", "1/", "a/4", "1/4x", "1//4", "99999999999/2"})
        EXPECT_THROW(parse_shard(bad), UsageError) << bad;
}

TEST(Shard, LongestFirstBalancesAndEqualCostsDealRoundRobin) {
    EXPECT_EQ(assign_shards({1, 1, 1, 1, 1}, 2), (std::vector<std::size_t>{0, 1, 0, 1, 0}));
    // 7 and 5 take a shard each, then every smaller case goes to the lighter one.
    const std::vector<std::size_t> s = assign_shards({1, 7, 2, 5, 3}, 2);
    EXPECT_EQ(s, (std::vector<std::size_t>{1, 0, 0, 1, 1}));
    std::vector<double> load(2);
    const std::vector<double> costs{1, 7, 2, 5, 3};
    for (std::size_t i = 0; i < costs.size(); ++i) load[s[i]] += costs[i];
    EXPECT_EQ(load, (std::vector<double>{9, 9}));
}

TEST(Shard, ShardsCoverTheSweepOnceAndAreTheSameFromTheSpecAlone) {
    Catalogue cat;
    register_builtin_kernels(cat);
    const SweepSpec whole_spec = stream_sweep();
    const SweepPlan whole(whole_spec, cat);
    const std::vector<std::string> all = names_of(whole);
    ASSERT_GT(all.size(), 8u);

    std::multiset<std::string> covered;
    std::vector<std::size_t> sizes;
    for (std::size_t i = 0; i < 4; ++i) {
        SweepSpec spec = whole_spec;
        spec.shard = {i, 4};
        const SweepPlan plan(spec, cat);
        const std::vector<std::string> mine = names_of(plan);
        EXPECT_EQ(plan.size(), mine.size());
        EXPECT_FALSE(mine.empty());
        covered.insert(mine.begin(), mine.end());
        sizes.push_back(mine.size());
        // A shard keeps the whole sweep's order (problem-major batches).
        std::vector<std::string> in_order;
        for (const std::string& n : all)
            if (std::find(mine.begin(), mine.end(), n) != mine.end()) in_order.push_back(n);
        EXPECT_EQ(mine, in_order);
        // Stored with the run and planned again by --resume: the same shard.
        const SweepSpec again = SweepSpec::from_json(spec.to_json());
        EXPECT_EQ(again.shard, spec.shard);
        EXPECT_EQ(names_of(SweepPlan(again, cat)), mine);
    }
    EXPECT_EQ(covered, std::multiset<std::string>(all.begin(), all.end()));
    // The byte model prices the larger sizes dearer: the shards differ in count, not in cost.
    double total = 0, largest = 0;
    std::vector<double> cost(4);
    for (std::size_t i = 0; i < 4; ++i) {
        SweepSpec spec = whole_spec;
        spec.shard = {i, 4};
        const SweepPlan plan(spec, cat);
        SweepPlan::Pass pass = plan.pass();
        for (auto batch = pass.next(); !batch.empty(); batch = pass.next())
            for (const PlannedCase& c : batch) {
                const double x = predicted_cost(c, spec.sampler);
                cost[i] += x;
                total += x;
                largest = std::max(largest, x);
            }
    }
    for (double c : cost) EXPECT_LE(c, total / 4 + largest) << "longest processing time's bound";
}

TEST(Shard, AWholeSweepStoresNoShardAndMoreShardsThanCasesAreRefused) {
    Catalogue cat;
    register_builtin_kernels(cat);
    SweepSpec spec = stream_sweep();
    EXPECT_FALSE(spec.to_json().contains("shard"));
    spec.overrides = {"n=1024"};
    const std::size_t cases = SweepPlan(spec, cat).size();
    spec.shard = {0, cases + 1};
    EXPECT_THROW(SweepPlan(spec, cat), UsageError);
    nlohmann::json j = stream_sweep().to_json();
    j["shard"] = {{"index", 4}, {"count", 4}};
    EXPECT_THROW(SweepSpec::from_json(j), InputError);
}
