// Every CPU variant against the float64 reference: generators, A*At and A*B, sorted and
// unsorted rows, and the edge cases of sparse products (empty rows and matrices, a dense row,
// a single column), with tunables at their extremes.
#include <gtest/gtest.h>

#include "spgemm_test_support.hpp"

namespace memwall {
namespace {

using spgemm_test::Entry;
using spgemm_test::point;
using spgemm_test::temp;
using spgemm_test::write_mtx;

const std::vector<std::string> variants = {"gustavson_dense", "rowwise_hash", "esc", "graphblas_hash",
                                           "graphblas_gustavson"};

// Runs `variant` twice on the point (the second run reuses C's buffers) and checks each.
void expect_correct(const std::string& variant, const std::vector<std::string>& overrides) {
    const Catalogue c = spgemm_test::spgemm();
    const Variant& v = *c.family("spgemm").find(variant, Backend::cpu);
    const Params p = point(overrides, variant);
    const SpgemmWorkload w(SpgemmProblem::from(p), 11);
    auto inst = v.prepare(w, p);
    std::string where = variant + " on " + p.label();
    for (int run = 0; run < 2; ++run) {
        inst->poison();
        inst->run();
        const Check ch = inst->check();
        EXPECT_TRUE(ch.ok) << where << " run " << run << ": " << ch.message;
    }
    const auto model = v.input_model(w, p, MemoryHierarchy{});
    const Counter* flops = find_counter(model, "flops");
    ASSERT_NE(flops, nullptr);
    EXPECT_EQ(flops->value, 2.0 * static_cast<double>(w.stats().products)) << where;
    EXPECT_NE(find_counter(model, "spgemm.nnz_c"), nullptr);
}

void expect_all_correct(const std::vector<std::string>& overrides) {
    for (const auto& v : variants) expect_correct(v, overrides);
}

TEST(SpgemmCpuVariants, Generators) {
    expect_all_correct({"matrix=rmat", "scale=8", "degree=8"});
    expect_all_correct({"matrix=er", "scale=8", "degree=5.5"});
    expect_all_correct({"matrix=poisson2d", "nx=9"});
    expect_all_correct({"matrix=poisson3d7", "nx=5"});
    expect_all_correct({"matrix=poisson3d27", "nx=5"});
    expect_all_correct({"matrix=banded", "n=100", "half_width=3"});
}

TEST(SpgemmCpuVariants, SortedRowsAndOtherProducts) {
    expect_all_correct({"matrix=rmat", "scale=7", "degree=8", "sorted=1"});
    expect_all_correct({"matrix=rmat", "scale=7", "degree=8", "b=At"});
    expect_all_correct({"matrix=er", "scale=7", "degree=4", "b=er", "sorted=1"});
}

TEST(SpgemmCpuVariants, EmptyRowsADenseRowAndASingleColumn) {
    // Rows 2 and 4 empty, row 1 dense, column 3 used by every other row.
    std::vector<Entry> e;
    const std::int64_t n = 40;
    for (std::int64_t j = 1; j <= n; ++j) e.push_back({1, j, 0.5 + 0.01 * static_cast<double>(j)});
    for (std::int64_t i = 5; i <= n; i += 2) e.push_back({i, 3, -0.75});
    for (std::int64_t i = 6; i <= n; i += 3) e.push_back({i, i, 1.25});
    const std::string m = write_mtx(temp("edges.mtx"), n, n, e);
    expect_all_correct({"matrix=" + m});
    expect_all_correct({"matrix=" + m, "b=At", "sorted=1"});
    const std::string column = write_mtx(temp("column.mtx"), 6, 1, {{1, 1, 2.0}, {4, 1, -1.0}, {6, 1, 0.5}});
    expect_all_correct({"matrix=" + column, "b=At"});  // 6x1 times 1x6: an outer product
    const std::string empty = write_mtx(temp("empty.mtx"), 5, 5, {});
    expect_all_correct({"matrix=" + empty});
}

TEST(SpgemmCpuVariants, TunablesAtTheirExtremes) {
    const std::vector<std::string> rmat = {"matrix=rmat", "scale=8", "degree=8"};
    auto with = [&](std::vector<std::string> extra) {
        extra.insert(extra.begin(), rmat.begin(), rmat.end());
        return extra;
    };
    // Tables exactly as large as a bin's bound (rounded to a power of two), one bin, tiny bins.
    expect_correct("rowwise_hash", with({"table_factor=1", "bins=1"}));
    expect_correct("rowwise_hash", with({"table_factor=1", "bin_min=1", "bins=16", "sorted=1"}));
    expect_correct("rowwise_hash", with({"rows_per_chunk=1", "table_factor=4"}));
    expect_correct("gustavson_dense", with({"rows_per_chunk=1", "sorted=1"}));
    expect_correct("esc", with({"rows_per_chunk=100000"}));
}

}  // namespace
}  // namespace memwall
