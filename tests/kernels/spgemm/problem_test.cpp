#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "spgemm_test_support.hpp"

namespace memwall {
namespace {

using spgemm_test::point;
using spgemm_test::spgemm;
using spgemm_test::temp;
using spgemm_test::write_mtx;

TEST(SpgemmProblem, EveryCpuVariantAndThePresetsOfEachSource) {
    const Catalogue c = spgemm();
    const Family& f = c.family("spgemm");
    for (const char* v : {"gustavson_dense", "rowwise_hash", "esc", "graphblas_hash", "graphblas_gustavson"})
        EXPECT_NE(f.find(v, Backend::cpu), nullptr) << v;
    // A generator's unused axes are set to 0, so sweeping them repeats no point.
    Space s = f.space(*f.find("esc", Backend::cpu));
    s.apply_override("matrix=rmat,poisson2d");
    s.apply_override("nx=4,8");
    const auto pts = s.points();
    ASSERT_EQ(pts.size(), 3u);  // rmat once, poisson2d twice
    EXPECT_EQ(pts[0].str("matrix"), "rmat");
    EXPECT_EQ(pts[0].integer("nx"), 0);
    EXPECT_EQ(pts[1].integer("nx"), 4);
    EXPECT_EQ(pts[2].integer("scale"), 0);
}

TEST(SpgemmProblem, AnAxisNoSweptSourceReadsIsRefused) {
    const Catalogue c = spgemm();
    const Family& f = c.family("spgemm");
    Space s = f.space(*f.find("esc", Backend::cpu));
    s.apply_override("matrix=rmat");
    try {
        s.check_not_shadowed("nx");
        FAIL() << "nx was accepted with only rmat swept";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("poisson2d"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(s.check_not_shadowed("scale"));
    s.apply_override("matrix=rmat,poisson3d7");
    EXPECT_NO_THROW(s.check_not_shadowed("nx"));
    // A file reads none of the generators' axes.
    s.apply_override("matrix=" + write_mtx(temp("p1.mtx"), 2, 2, {{1, 1, 1.0}}));
    EXPECT_THROW(s.check_not_shadowed("scale"), UsageError);
}

TEST(SpgemmProblem, TheOperationFollowsB) {
    EXPECT_EQ(SpgemmProblem::from(point({"matrix=er", "scale=4"})).op, SpgemmProblem::Op::aa);
    EXPECT_EQ(SpgemmProblem::from(point({"matrix=er", "scale=4", "b=At"})).op, SpgemmProblem::Op::aat);
    const SpgemmProblem ab = SpgemmProblem::from(point({"matrix=er", "scale=4", "b=er"}));
    EXPECT_EQ(ab.op, SpgemmProblem::Op::ab);
    EXPECT_EQ(ab.b.source, MatrixSource::er);
}

TEST(SpgemmProblem, MalformedInputsStopTheSweepWithOneLine) {
    // R-MAT's probabilities must be a distribution.
    EXPECT_THROW(point({"matrix=rmat", "rmat_a=0.9", "rmat_b=0.2"}), UsageError);
    // A generated B must be A's generator (it is drawn with A's axes).
    EXPECT_THROW(point({"matrix=er", "b=poisson2d"}), UsageError);
    // A malformed file names its line; a missing one is the environment's.
    const std::string bad = temp("bad.mtx").string();
    { std::ofstream(bad) << "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n"; }
    try {
        (void)point({"matrix=" + bad});
        FAIL() << "an out-of-range row was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("bad.mtx:3"), std::string::npos) << e.what();
    }
    EXPECT_THROW(point({"matrix=" + temp("missing.mtx").string()}), EnvironmentError);
    // A*A needs a square A; A*B needs A's columns to be B's rows.
    const std::string wide = write_mtx(temp("wide.mtx"), 2, 3, {{1, 3, 1.0}});
    EXPECT_THROW(point({"matrix=" + wide}), UsageError);
    EXPECT_NO_THROW(point({"matrix=" + wide, "b=At"}));
    EXPECT_THROW(point({"matrix=" + wide, "b=" + wide}), UsageError);
    const std::string tall = write_mtx(temp("tall.mtx"), 3, 2, {{3, 1, 1.0}});
    EXPECT_NO_THROW(point({"matrix=" + wide, "b=" + tall}));
}

}  // namespace
}  // namespace memwall
