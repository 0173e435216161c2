#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "spgemm_test_support.hpp"

namespace memwall {
namespace {

using spgemm_test::point;
using spgemm_test::temp;
using spgemm_test::write_mtx;

// A = [1 2; 0 3]: A*A = [1 8; 0 9], three products for three entries... plus one: C(0,1) sums two.
SpgemmWorkload small(bool sorted = false) {
    const std::string a = write_mtx(temp("a.mtx"), 2, 2, {{1, 1, 1.0}, {1, 2, 2.0}, {2, 2, 3.0}});
    return SpgemmWorkload(SpgemmProblem::from(point({"matrix=" + a, std::string("sorted=") + (sorted ? "1" : "0")})),
                          1);
}

CsrMatrix expected() {
    CsrMatrix c;
    c.rows = c.cols = 2;
    c.row_ptr = {0, 2, 3};
    c.col = {0, 1, 1};
    c.val = {1.0, 8.0, 9.0};
    return c;
}

TEST(SpgemmWorkload, StatisticsOfInputAndProduct) {
    const SpgemmWorkload w = small();
    const ProductStats& s = w.stats();
    EXPECT_EQ(s.a.nnz, 3);
    EXPECT_EQ(s.products, 4);  // row 0: 2 + 1, row 1: 1
    EXPECT_EQ(s.max_row_products, 3);
    EXPECT_EQ(s.nnz_c, 3);
    EXPECT_NEAR(s.compression(), 4.0 / 3.0, 1e-12);
    EXPECT_EQ(w.row_products(), (std::vector<std::int64_t>{3, 1}));
}

TEST(SpgemmWorkload, TheCheckAcceptsTheProductInAnyRowOrder) {
    const SpgemmWorkload w = small();
    EXPECT_TRUE(w.check(expected()).ok) << w.check(expected()).message;
    CsrMatrix c = expected();
    std::swap(c.col[0], c.col[1]);
    std::swap(c.val[0], c.val[1]);
    EXPECT_TRUE(w.check(c).ok);
    // sorted=1 asks for sorted rows.
    const SpgemmWorkload ws = small(true);
    EXPECT_TRUE(ws.check(expected()).ok);
    const Check unsorted = ws.check(c);
    EXPECT_FALSE(unsorted.ok);
    EXPECT_NE(unsorted.message.find("not sorted"), std::string::npos) << unsorted.message;
}

TEST(SpgemmWorkload, TheCheckCatchesWrongStructureValuesAndUnwrittenEntries) {
    const SpgemmWorkload w = small();
    CsrMatrix c = expected();
    c.val[1] = 8.0 * (1 + 1e-13);
    EXPECT_FALSE(w.check(c).ok);
    c = expected();
    c.val[2] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(w.check(c).message.find("not finite"), std::string::npos);
    c = expected();
    c.col[2] = 0;  // row 1's entry in the wrong column
    EXPECT_NE(w.check(c).message.find("structure differs"), std::string::npos);
    c = expected();
    c.row_ptr = {0, 1, 3};  // an entry moved to the next row
    EXPECT_FALSE(w.check(c).ok);
    c = expected();
    c.col.pop_back();
    c.val.pop_back();
    c.row_ptr = {0, 2, 2};
    EXPECT_NE(w.check(c).message.find("row 1 has 0 entries"), std::string::npos) << w.check(c).message;
}

TEST(SpgemmWorkload, CancellationKeepsTheEntryAndTheBoundFollowsTheTerms) {
    // A = [1 1; 1 -1]: A*A = [2 0; 0 2], where C(0,1) = 1 - 1 cancels but stays an entry.
    const std::string a = write_mtx(temp("cancel.mtx"), 2, 2, {{1, 1, 1.0}, {1, 2, 1.0}, {2, 1, 1.0}, {2, 2, -1.0}});
    const SpgemmWorkload w(SpgemmProblem::from(point({"matrix=" + a})), 1);
    EXPECT_EQ(w.stats().nnz_c, 4);
    CsrMatrix c;
    c.rows = c.cols = 2;
    c.row_ptr = {0, 2, 4};
    c.col = {0, 1, 0, 1};
    c.val = {2.0, 1e-17, 0.0, 2.0};  // a rounding-sized residue is within the bound of two terms
    EXPECT_TRUE(w.check(c).ok) << w.check(c).message;
    c.val[1] = 1e-3;
    EXPECT_FALSE(w.check(c).ok);
}

TEST(SpgemmWorkload, AatAndASecondGeneratedInput) {
    const SpgemmWorkload aat(SpgemmProblem::from(point({"matrix=er", "scale=5", "degree=3", "b=At"})), 7);
    EXPECT_EQ(aat.b().rows, aat.a().cols);
    EXPECT_EQ(aat.b().nnz(), aat.a().nnz());
    const SpgemmWorkload ab(SpgemmProblem::from(point({"matrix=er", "scale=5", "degree=3", "b=er"})), 7);
    EXPECT_NE(&ab.a(), &ab.b());
    EXPECT_NE(ab.a().col, ab.b().col);  // another seed
}

}  // namespace
}  // namespace memwall
