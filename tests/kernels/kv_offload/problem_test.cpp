#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "kv_test_support.hpp"

using namespace memwall;

namespace {

Params with(Params p, const std::string& name, Value v) {
    p.set(name, std::move(v));
    return p;
}

void expect_refused(const Params& p, const std::string& needle) {
    try {
        (void)KvProblem::from(p);
        ADD_FAILURE() << "accepted; expected " << needle;
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
}

}  // namespace

TEST(KvOffloadProblem, SizesAndCounts) {
    const KvProblem p = KvProblem::from(kv_test::small_params());
    EXPECT_EQ(p.pages(), 16);
    EXPECT_EQ(p.selected(), 4);
    EXPECT_EQ(p.reused(), 2);
    EXPECT_EQ(p.page_bytes(), 2u * 2 * 4 * 8 * 4);
    EXPECT_EQ(p.file_bytes(), 16u * 512);
    EXPECT_EQ(p.v_offset(1) - p.k_offset(1), 2u * 4 * 8);
    EXPECT_DOUBLE_EQ(p.tier_bytes(), 3.0 * 4 * 512);
    // 3 steps × 16 tokens × 2 heads × 4·8 FLOPs
    EXPECT_DOUBLE_EQ(p.flops(), 3.0 * 16 * 2 * 32);
    EXPECT_DOUBLE_EQ(p.min_bytes(), 3.0 * 4 * 512 + 2.0 * 4 * 3 * 2 * 8);
}

TEST(KvOffloadProblem, RefusesMalformedProblemsInOneLine) {
    const Params p = kv_test::small_params();
    expect_refused(with(p, "context", std::int64_t{66}), "not a whole number of pages");
    expect_refused(with(p, "heads", std::int64_t{0}), "at least 1");
    expect_refused(with(p, "select", 0.0), "select must be in (0, 1]");
    expect_refused(with(p, "reuse", 1.5), "reuse must be in [0, 1]");
    expect_refused(with(p, "dtype", std::string("fp16")), "dtype must be fp32");
    // 12 of 16 pages with no reuse needs 12 new pages a step; only 4 are left out.
    expect_refused(with(with(p, "select", 0.75), "reuse", 0.0), "needs 12 new pages per step but only 4");
    // One step has no previous selection to differ from.
    EXPECT_NO_THROW((void)KvProblem::from(with(with(with(p, "select", 0.75), "reuse", 0.0), "steps", std::int64_t{1})));
}
