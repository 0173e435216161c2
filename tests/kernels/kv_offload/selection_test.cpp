#include <algorithm>
#include <iterator>

#include <gtest/gtest.h>

#include "kv_test_support.hpp"

using namespace memwall;

namespace {

std::size_t common(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
    std::vector<std::int64_t> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    return both.size();
}

KvProblem problem(double select, double reuse, std::int64_t steps) {
    Params p = kv_test::small_params();
    p.set("context", std::int64_t{4096});  // 1024 pages
    p.set("select", select);
    p.set("reuse", reuse);
    p.set("steps", steps);
    return KvProblem::from(p);
}

}  // namespace

// Every step selects distinct pages in range, ascending; each later step shares exactly
// reused() of them with the step before.
TEST(KvOffloadSelection, ReuseIsExactBetweenConsecutiveSteps) {
    for (const double reuse : {0.0, 0.3, 0.8, 1.0}) {
        const KvProblem p = problem(0.1, reuse, 20);
        const auto sel = kv_selections(p, 7);
        ASSERT_EQ(sel.size(), 20u);
        for (std::size_t s = 0; s < sel.size(); ++s) {
            ASSERT_EQ(static_cast<std::int64_t>(sel[s].size()), p.selected());
            EXPECT_TRUE(std::is_sorted(sel[s].begin(), sel[s].end()));
            EXPECT_EQ(std::adjacent_find(sel[s].begin(), sel[s].end()), sel[s].end());
            EXPECT_GE(sel[s].front(), 0);
            EXPECT_LT(sel[s].back(), p.pages());
            if (s > 0) {
                EXPECT_EQ(static_cast<std::int64_t>(common(sel[s], sel[s - 1])), p.reused()) << "reuse " << reuse;
            }
        }
    }
}

// With reuse below 1 the selections move: over many steps they reach far more pages than one
// step holds, and a different seed draws different pages.
TEST(KvOffloadSelection, FollowsTheSeed) {
    const KvProblem p = problem(0.05, 0.5, 40);
    const auto a = kv_selections(p, 1), b = kv_selections(p, 1), c = kv_selections(p, 2);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    std::vector<std::int64_t> seen;
    for (const auto& s : a) seen.insert(seen.end(), s.begin(), s.end());
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    EXPECT_GT(static_cast<std::int64_t>(seen.size()), 10 * p.selected());
}
