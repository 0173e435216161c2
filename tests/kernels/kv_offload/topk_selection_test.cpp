// selection=topk: each step's pages are those the approximate scores over the label channels rank
// highest, the tier's bytes are those pages' (every CPU variant), and reuse measures the locality.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "kernels/kv_offload/register.hpp"
#include "kernels/kv_offload/variant_case.hpp"
#include "kv_test_support.hpp"

using namespace memwall;

namespace {

// 64 pages of 4 tokens, 2 heads of 8, 8 pages a step chosen by 4 label channels, 5 steps.
Params topk_params() {
    Params p = kv_test::small_params();
    p.set("context", std::int64_t{256});
    p.set("select", 0.125);
    p.set("steps", std::int64_t{5});
    p.set("selection", std::string("topk"));
    p.set("label_channels", std::int64_t{4});
    return p;
}

const float* key(const KvWorkload& w, std::int64_t page, std::int64_t h, std::int64_t token) {
    const KvProblem& p = w.problem();
    return w.kv() + static_cast<std::size_t>(page) * p.page_floats() + p.k_offset(h) +
           static_cast<std::size_t>(token * p.head_dim);
}

// The score of every page at step s, written out plainly: per head the 4 channels of largest
// sum |K|, each token's q . K over them, the page's best token per head, summed over heads.
std::vector<double> page_scores(const KvWorkload& w, std::int64_t s) {
    const KvProblem& p = w.problem();
    std::vector<double> score(static_cast<std::size_t>(p.pages()), 0.0);
    for (std::int64_t h = 0; h < p.heads; ++h) {
        std::vector<double> mass(static_cast<std::size_t>(p.head_dim), 0.0);
        for (std::int64_t page = 0; page < p.pages(); ++page)
            for (std::int64_t j = 0; j < p.page_tokens; ++j)
                for (std::int64_t c = 0; c < p.head_dim; ++c)
                    mass[static_cast<std::size_t>(c)] += std::fabs(key(w, page, h, j)[c]);
        std::vector<std::int64_t> order(mass.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
            return mass[static_cast<std::size_t>(a)] > mass[static_cast<std::size_t>(b)];
        });
        order.resize(static_cast<std::size_t>(p.label_channels));
        std::sort(order.begin(), order.end());
        for (std::int64_t page = 0; page < p.pages(); ++page) {
            double best = -INFINITY;
            for (std::int64_t j = 0; j < p.page_tokens; ++j) {
                double dot = 0;
                for (const std::int64_t c : order) dot += static_cast<double>(w.q(s, h)[c]) * key(w, page, h, j)[c];
                best = std::max(best, dot);
            }
            score[static_cast<std::size_t>(page)] += best;
        }
    }
    return score;
}

}  // namespace

// Every selected page scores at least as high as every page left out.
TEST(KvOffloadTopkSelection, PicksThePagesTheScoresRankHighest) {
    kv_test::ScratchDir d;
    const KvWorkload w(KvProblem::from(topk_params()), 3, d.path);
    const KvProblem& p = w.problem();
    ASSERT_EQ(static_cast<std::int64_t>(w.selections().size()), p.steps);
    for (std::int64_t s = 0; s < p.steps; ++s) {
        const auto& chosen = w.selections()[static_cast<std::size_t>(s)];
        ASSERT_EQ(static_cast<std::int64_t>(chosen.size()), p.selected());
        EXPECT_TRUE(std::is_sorted(chosen.begin(), chosen.end()));
        const std::vector<double> score = page_scores(w, s);
        double lowest_in = INFINITY, highest_out = -INFINITY;
        for (std::int64_t page = 0; page < p.pages(); ++page) {
            const double x = score[static_cast<std::size_t>(page)];
            if (std::binary_search(chosen.begin(), chosen.end(), page))
                lowest_in = std::min(lowest_in, x);
            else
                highest_out = std::max(highest_out, x);
        }
        EXPECT_GE(lowest_in, highest_out) << "step " << s;
    }
}

// The tier's bytes are the chosen pages' (each variant's own tally of what it read), the output
// is attention over them, and reuse is the steps' shared fraction.
TEST(KvOffloadTopkSelection, TierBytesAreTheChosenPages) {
    kv_test::ScratchDir d;
    Catalogue c;
    register_kv_offload(c);
    const Params params = topk_params();
    const KvWorkload w(KvProblem::from(params), 3, d.path);
    const KvProblem& p = w.problem();
    std::uint64_t chosen = 0;
    for (const auto& s : w.selections()) chosen += s.size();
    double shared = 0;
    for (std::size_t s = 1; s < w.selections().size(); ++s) {
        std::vector<std::int64_t> both;
        std::set_intersection(w.selections()[s].begin(), w.selections()[s].end(), w.selections()[s - 1].begin(),
                              w.selections()[s - 1].end(), std::back_inserter(both));
        shared += static_cast<double>(both.size());
    }
    for (const std::string name : {"pread", "mmap", "uring"}) {
        SCOPED_TRACE(name);
        const Variant& v = c.variant("kv_offload", name, Backend::cpu);
        Params point = params;
        for (const Axis& a : v.tunables) point.set(a.name, a.defaults.front());
        auto inst = v.prepare(w, point);
        inst->poison();
        inst->run();
        EXPECT_TRUE(inst->check().ok) << inst->check().message;
        const auto& kv = dynamic_cast<const KvInstance&>(*inst);
        EXPECT_EQ(kv.tally().bytes, chosen * p.page_bytes());
        const auto counters = inst->measured_counters();
        ASSERT_EQ(counters.size(), 1u);
        EXPECT_EQ(counters[0].name, "reuse");
        EXPECT_DOUBLE_EQ(counters[0].value, shared / static_cast<double>((p.steps - 1) * p.selected()));
    }
}

TEST(KvOffloadTopkSelection, RejectsLabelChannelsAboveHeadDim) {
    Params p = topk_params();
    p.set("label_channels", std::int64_t{9});
    EXPECT_THROW(KvProblem::from(p), UsageError);
    p.set("selection", std::string("nearest"));
    EXPECT_THROW(KvProblem::from(p), UsageError);
}
