// The spgemm family's shared definitions: the problem (which inputs, which product), the
// workload (the inputs, their statistics, the float64 reference), the output and its check.
//
// C = A·B in CSR, fp64 values, 32-bit column indices. B is A (A·A, the default), Aᵀ, or a second
// input: a generator drawn with another seed, or a Matrix Market file. FLOPs are 2 × the
// intermediate products a_ik·b_kj (the nsparse/OpSparse convention), whatever cancels.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/space.hpp"
#include "kernels/spgemm/csr.hpp"
#include "kernels/spgemm/generators.hpp"

namespace memwall {

// Where a matrix comes from: a generator's name, or a Matrix Market file.
enum class MatrixSource { rmat, er, poisson2d, poisson3d7, poisson3d27, banded, file };

struct MatrixSpec {
    MatrixSource source = MatrixSource::rmat;
    std::string path;                    // source file
    int scale = 0;                       // rmat, er: 2^scale rows
    double degree = 0;                   // rmat: edges per row; er: mean degree
    double a = 0, b = 0, c = 0;          // rmat's quadrant probabilities
    std::int64_t n = 0, half_width = 0;  // banded
    std::int64_t nx = 0;                 // poisson: grid side

    // The matrix, drawn with `seed` (generators) or read (file: InputError with file and line).
    CsrMatrix make(std::uint64_t seed) const;
};

struct SpgemmProblem {
    MatrixSpec a;
    enum class Op { aa, aat, ab } op = Op::aa;
    MatrixSpec b;         // op ab
    bool sorted = false;  // output rows sorted by column

    // Reads the family's axes (the presets have set the axes a source does not use). Throws
    // UsageError for a malformed generator (R-MAT probabilities, sizes) and InputError for a
    // malformed file; `check_files` reads them (the validator does, before a sweep starts).
    static SpgemmProblem from(const Params& p);
    std::string op_name() const;
};

// The family's axes and presets (register.cpp), and the generator names of the matrix axis.
std::vector<Axis> spgemm_axes();
std::vector<Preset> spgemm_presets();
// Validates every point before a sweep: generators' parameters, and each file read in full
// (a malformed one exits 2 with its file and line before the database is opened); A's columns
// must match B's rows.
void spgemm_validate(const Params& p);

// An input's statistics and the product's, stored with every case.
struct ProductStats {
    CsrStats a, b;
    std::int64_t products = 0;  // intermediate products sum_i sum_{k in A_i} nnz(B_k)
    std::int64_t max_row_products = 0;
    std::int64_t nnz_c = 0;
    double compression() const { return nnz_c > 0 ? static_cast<double>(products) / static_cast<double>(nnz_c) : 0; }
};

// The output of a variant: CSR with rows in the variant's own column order (sorted or not).
struct SpgemmOutput {
    CsrMatrix c;
    // Sizes C for `nnz` entries, poisoning the elements it adds; the storage of earlier runs is
    // reused, as a caller of a library's SpGEMM reuses C's buffers.
    void allocate(std::int64_t rows, std::int64_t cols, std::int64_t nnz);
    // Row pointers -1, columns -1, values NaN, so an element a phase fails to write is caught.
    void poison();
};

class SpgemmWorkload : public Workload {
  public:
    SpgemmWorkload(const SpgemmProblem& p, std::uint64_t seed);
    const SpgemmProblem& problem() const { return problem_; }
    const CsrMatrix& a() const { return a_; }
    const CsrMatrix& b() const { return problem_.op == SpgemmProblem::Op::aa ? a_ : b_; }  // Aᵀ materialised
    // The inputs' and the product's statistics (nnz(C) from the reference, computed once).
    const ProductStats& stats() const;
    // Products per row of A·B (prefix: products_before(i) = sum over rows < i), exact.
    const std::vector<std::int64_t>& row_products() const { return row_products_; }
    // Structure equal to the reference's (each row compared sorted; sorted-output problems
    // must be sorted), values within (k + 2)·2^-52 Σ|a_ik b_kj| of it, k the entry's products.
    Check check(const CsrMatrix& c) const;

  private:
    struct Reference {
        CsrMatrix c;                      // sorted rows
        std::vector<double> scale;        // per entry: sum of |a_ik b_kj|
        std::vector<std::int32_t> terms;  // per entry: its products
    };
    const Reference& reference() const;

    SpgemmProblem problem_;
    CsrMatrix a_, b_;
    mutable ProductStats stats_;
    std::vector<std::int64_t> row_products_;
    mutable std::once_flag reference_once_;
    mutable Reference reference_;
};

// Aᵀ in CSR (sorted rows).
CsrMatrix transpose(const CsrMatrix& m);
// Products per row of A·B.
std::vector<std::int64_t> row_products(const CsrMatrix& a, const CsrMatrix& b);

}  // namespace memwall
