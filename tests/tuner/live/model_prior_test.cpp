#include "tuner/live/model_prior.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/builtin_catalogue.hpp"

namespace memwall {
namespace {

const Catalogue& builtin() { return testing::builtin_catalogue(); }

MemoryHierarchy small_caches() {
    MemoryHierarchy mh;
    mh.caches = {{"l1", 48 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    mh.cpus = 2;
    return mh;
}

// Flash's tiles decide how often K and V are read again: the model's bytes differ between
// configurations, and each one is the model's own figure for that configuration.
TEST(ModelPrior, GivesTheModelsCountsOfEveryConfiguration) {
    const LiveTarget t = live_target(builtin(), "attention", "flash", Backend::cpu,
                                     {"seq_q=1024", "seq_k=1024", "head_dim=64", "causal=0"});
    const MemoryHierarchy mh = small_caches();
    const CounterPrior prior = model_counter_prior(t, mh);
    ASSERT_FALSE(prior.empty());
    ASSERT_EQ(prior.values.size(), t.space.size());
    EXPECT_NE(std::find(prior.names.begin(), prior.names.end(), "flops"), prior.names.end());
    bool varies = false;
    for (std::size_t k = 0; k < prior.names.size(); ++k)
        for (std::size_t id = 1; id < t.space.size(); ++id)
            varies = varies || prior.values[id][k] != prior.values[0][k];
    EXPECT_TRUE(varies);
    const std::size_t last = t.space.size() - 1;
    for (const Counter& c : t.variant->model(t.problem.merged(t.space.params(last)), mh)) {
        const auto at = std::find(prior.names.begin(), prior.names.end(), c.name);
        if (c.name == counters::kWorkspace) {  // what it allocates is no work
            EXPECT_EQ(at, prior.names.end());
            continue;
        }
        ASSERT_NE(at, prior.names.end()) << c.name;
        EXPECT_DOUBLE_EQ(prior.values[last][static_cast<std::size_t>(at - prior.names.begin())], c.value) << c.name;
    }
}

// SpGEMM's counts follow from the matrix, which the tuner has not built: no prior.
TEST(ModelPrior, IsEmptyWhenTheModelNeedsTheInputs) {
    const LiveTarget t = live_target(builtin(), "spgemm", "gustavson_dense", Backend::cpu, {});
    ASSERT_TRUE(t.variant->input_model);
    EXPECT_TRUE(model_counter_prior(t, small_caches()).empty());
}

}  // namespace
}  // namespace memwall
