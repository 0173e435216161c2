// The emulatable CUDA spgemm kernels (rowwise_hash, esc) under cuda-emu against the float64
// reference: R-MAT, a 27-point Poisson grid, a banded matrix and a matrix with empty rows, a
// dense row and a full column; A*A, A*At and A*B; sorted output; tunings at the edges of their
// rules; a table factor that sends rows to global-memory tables; other block orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/spgemm/cuda/device_case.hpp"
#include "matrices.hpp"

namespace memwall {
namespace {

using spgemm_cuda::Algorithm;
using spgemm_cuda::Tuning;
using namespace spgemm_test;

struct Outcome {
    Check check;
    CsrMatrix c;
    std::int64_t fallback_rows = 0;
    std::string detail;
};

Outcome run(const SpgemmWorkload& w, const Tuning& t, const emu::EmulationOptions& o = {}) {
    auto device = spgemm_cuda::cuda_emu::make_device_case(w.a(), w.b(), w.problem().sorted, t, o);
    device->poison();
    device->run();
    Outcome out;
    out.c = device->download_csr();
    out.check = w.check(out.c);
    out.fallback_rows = device->fallback_rows();
    out.detail = device->detail();
    return out;
}

Tuning hash(double factor = 1.5, int tpr = 8, int bin_min = 32, int bins = 8, int threads = 256) {
    Tuning t;
    t.algorithm = Algorithm::rowwise_hash;
    t.table_factor = factor;
    t.threads_per_row = tpr;
    t.bin_min = bin_min;
    t.bins = bins;
    t.threads = threads;
    return t;
}

Tuning esc(int threads = 256) {
    Tuning t;
    t.algorithm = Algorithm::esc;
    t.threads = threads;
    return t;
}

bool rows_sorted(const CsrMatrix& c) {
    for (std::size_t i = 0; i + 1 < c.row_ptr.size(); ++i)
        if (!std::is_sorted(c.col.begin() + c.row_ptr[i], c.col.begin() + c.row_ptr[i + 1])) return false;
    return true;
}

void expect_all_variants_correct(const SpgemmWorkload& w, const std::string& what) {
    for (const Tuning& t : {hash(), esc()}) {
        SCOPED_TRACE(what + (t.algorithm == Algorithm::esc ? " esc" : " rowwise_hash"));
        const Outcome o = run(w, t);
        EXPECT_TRUE(o.check.ok) << o.check.message;
    }
}

TEST(CudaEmuSpgemm, GeneratedMatricesAllOpsMatchTheReference) {
    using Op = SpgemmProblem::Op;
    for (const MatrixSpec& m : {rmat_spec(7), poisson27_spec(5), banded_spec(300, 6)})
        for (const Op op : {Op::aa, Op::aat, Op::ab}) {
            const SpgemmWorkload w(problem(m, op, false, m), 11);
            expect_all_variants_correct(
                w, "source " + std::to_string(static_cast<int>(m.source)) + " op " + w.problem().op_name());
        }
}

TEST(CudaEmuSpgemm, EmptyRowsADenseRowAndAFullColumn) {
    const MtxFile f("awkward", kAwkwardN, kAwkwardN, awkward_entries());
    for (const auto op : {SpgemmProblem::Op::aa, SpgemmProblem::Op::aat}) {
        const SpgemmWorkload w(problem(file_spec(f.path()), op), 3);
        ASSERT_GT(w.stats().max_row_products, spgemm_cuda::kEscSharedElements);  // esc's global sort runs
        expect_all_variants_correct(w, w.problem().op_name());
    }
}

TEST(CudaEmuSpgemm, SortedProblemsGetSortedRows) {
    const MtxFile f("awkward-sorted", kAwkwardN, kAwkwardN, awkward_entries());
    for (const MatrixSpec& m : {rmat_spec(7), poisson27_spec(4), file_spec(f.path())}) {
        const SpgemmWorkload w(problem(m, SpgemmProblem::Op::aa, true), 5);
        // Shared tables ranked by counting, and (factor 1) global tables sorted in place.
        for (const Tuning& t : {hash(), hash(1.0), esc()}) {
            const Outcome o = run(w, t);
            EXPECT_TRUE(o.check.ok) << o.check.message;
            EXPECT_TRUE(rows_sorted(o.c));
        }
    }
}

TEST(CudaEmuSpgemm, ASmallTableFactorFallsBackToGlobalTablesAndStaysCorrect) {
    const SpgemmWorkload w(problem(rmat_spec(7)), 2);
    const Outcome shared = run(w, hash(1.5));
    EXPECT_TRUE(shared.check.ok) << shared.check.message;
    EXPECT_EQ(shared.fallback_rows, 0);
    const Outcome fallback = run(w, hash(1.0));
    EXPECT_TRUE(fallback.check.ok) << fallback.check.message;
    EXPECT_GT(fallback.fallback_rows, 0);
    // The rule: a row falls back when its entries fill 80% of its bin's table.
    std::int64_t expected = 0;
    for (const std::int64_t p : w.row_products())
        expected += p > 0 && spgemm_cuda::binning::falls_back(p, w.b().cols, 1.0, 32, 8);
    EXPECT_EQ(fallback.fallback_rows, expected);
    EXPECT_NE(fallback.detail.find("fallback to global tables: " + std::to_string(expected) + " rows"),
              std::string::npos)
        << fallback.detail;
}

TEST(CudaEmuSpgemm, RowsLongerThanTheLargestSharedTableFallBack) {
    // Row 0 of A takes B's rows 0..3, whose columns interleave over 3000: C's row 0 has 3000
    // entries, more than 80% of the largest shared table (2048 slots), at any table factor.
    std::vector<Entry> a{{0, 0, 1.0}, {0, 1, -2.0}, {0, 2, 0.5}, {0, 3, 1.5}}, b;
    for (std::int64_t i = 1; i < 20; ++i) a.push_back({i, i, 2.0});
    for (std::int64_t j = 0; j < 3000; ++j) b.push_back({j % 4, j, 1.0 + static_cast<double>(j % 3)});
    for (std::int64_t i = 4; i < 20; ++i) b.push_back({i, i * 100, -1.0});
    const MtxFile fa("long-a", 20, 20, a), fb("long-b", 20, 3000, b);
    for (const bool sorted : {false, true}) {
        const SpgemmWorkload w(problem(file_spec(fa.path()), SpgemmProblem::Op::ab, sorted, file_spec(fb.path())), 1);
        const Outcome o = run(w, hash(4.0));
        EXPECT_TRUE(o.check.ok) << o.check.message;
        EXPECT_EQ(o.fallback_rows, 1);
        EXPECT_TRUE(run(w, esc()).check.ok);
    }
}

TEST(CudaEmuSpgemm, TuningsAtTheEdgesOfTheirRules) {
    const SpgemmWorkload w(problem(rmat_spec(7)), 4);
    for (const Tuning& t : {hash(1.5, 4), hash(1.5, 32), hash(2.0, 16, 1, 16), hash(1.25, 8, 64, 1),
                            hash(4.0, 8, 8, 3, 32), hash(1.5, 32, 32, 8, 1024), esc(32), esc(1024)}) {
        SCOPED_TRACE("threads " + std::to_string(t.threads) + " tpr " + std::to_string(t.threads_per_row) +
                     " bin_min " + std::to_string(t.bin_min) + " bins " + std::to_string(t.bins));
        const Outcome o = run(w, t);
        EXPECT_TRUE(o.check.ok) << o.check.message;
    }
}

TEST(CudaEmuSpgemm, OtherBlockOrdersGiveTheSameResult) {
    const SpgemmWorkload w(problem(poisson27_spec(4), SpgemmProblem::Op::aa, true), 9);
    for (const auto order : {emu::BlockOrder::reverse, emu::BlockOrder::shuffled}) {
        emu::EmulationOptions o;
        o.order = order;
        o.seed = 17;
        for (const Tuning& t : {hash(), hash(1.0), esc()}) EXPECT_TRUE(run(w, t, o).check.ok);
    }
}

TEST(CudaEmuSpgemm, RulesAreRefused) {
    const SpgemmWorkload w(problem(poisson27_spec(3)), 1);
    auto make = [&](const Tuning& t) { return spgemm_cuda::cuda_emu::make_device_case(w.a(), w.b(), false, t); };
    EXPECT_THROW(make(hash(1.5, 6)), std::invalid_argument);
    EXPECT_THROW(make(hash(0.5)), std::invalid_argument);
    EXPECT_THROW(make(hash(1.5, 8, 32, 8, 100)), std::invalid_argument);
    EXPECT_THROW(make(hash(1.5, 8, 32, 0)), std::invalid_argument);
    Tuning cusparse;
    cusparse.algorithm = Algorithm::cusparse;
    EXPECT_THROW(make(cusparse), std::invalid_argument);
}

TEST(CudaEmuSpgemm, ProductsOrSizesBeyondInt32AreRefused) {
    // 2^16 rows of A, each with one entry in column 0, times a B whose row 0 has 2^15 + 1
    // entries: 2^31 + 2^16 products from small inputs.
    CsrMatrix a, b;
    a.rows = a.cols = b.rows = 1 << 16;
    b.cols = (1 << 15) + 1;
    for (std::int64_t i = 0; i < a.rows; ++i) {
        a.col.push_back(0);
        a.val.push_back(1.0);
        a.row_ptr.push_back(i + 1);
    }
    for (std::int32_t j = 0; j < b.cols; ++j) {
        b.col.push_back(j);
        b.val.push_back(1.0);
    }
    b.row_ptr.assign(static_cast<std::size_t>(b.rows) + 1, b.cols);
    b.row_ptr[0] = 0;
    EXPECT_THROW(spgemm_cuda::cuda_emu::make_device_case(a, b, false, hash()), std::invalid_argument);
    b.cols = 1;
    b.col.resize(1);
    b.val.resize(1);
    b.row_ptr.assign(static_cast<std::size_t>(b.rows) + 1, 1);
    b.row_ptr[0] = 0;
    EXPECT_NO_THROW(spgemm_cuda::validate_inputs(a, b));
    b.rows = 3;  // A's columns are not B's rows
    EXPECT_THROW(spgemm_cuda::validate_inputs(a, b), std::invalid_argument);
}

}  // namespace
}  // namespace memwall
