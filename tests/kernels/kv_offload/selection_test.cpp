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

// The LRU's hits (the cached variant's model): with room for one step, exactly the pages each step
// shares with the one before; with room for every page, every selection of a page after its
// first; in between, at least the former and at most the latter.
TEST(KvOffloadSelection, LruHitsFollowTheReuse) {
    const KvProblem p = problem(0.1, 0.6, 12);
    const auto sel = kv_selections(p, 3);
    const auto per_step = static_cast<std::uint64_t>(p.reused() * (p.steps - 1));
    EXPECT_EQ(lru_hits(sel, p.selected()), per_step);
    std::vector<std::int64_t> seen;
    for (const auto& s : sel) seen.insert(seen.end(), s.begin(), s.end());
    const std::size_t total = seen.size();
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    const auto all = static_cast<std::uint64_t>(total - seen.size());
    EXPECT_EQ(lru_hits(sel, p.pages()), all);
    const std::uint64_t between = lru_hits(sel, 3 * p.selected());
    EXPECT_GE(between, per_step);
    EXPECT_LE(between, all);
    EXPECT_GT(all, per_step);  // so the bounds above say something
}

// By hand, with room for 2 pages and for 3.
TEST(KvOffloadSelection, LruEvictsTheLeastRecentlyUsedPage) {
    const std::vector<std::vector<std::int64_t>> sel = {{0, 1}, {1, 2}, {0, 1}, {1, 2}};
    // step 1: 1 hits; 2 evicts 0 (step 0). step 2: 1 hits; 0 evicts 2 (step 1, the only older
    // page). step 3: 1 hits; 2 evicts 0.
    EXPECT_EQ(lru_hits(sel, 2), 3u);
    EXPECT_EQ(lru_hits(sel, 3), 5u);  // every page stays: 1, 1 and 0, 1 and 2
}
