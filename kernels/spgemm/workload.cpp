// The spgemm workload: inputs drawn or read once, the float64 reference (computed at the first
// check, with each entry's error scale), and the check of a variant's CSR output.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "core/errors.hpp"
#include "kernels/spgemm/spgemm.hpp"

namespace memwall {

namespace {

// B of a generated A·B: the same generator, drawn with another seed.
constexpr std::uint64_t kSecondInputSeed = 0x9e3779b97f4a7c15ULL;

std::string entry(std::int64_t i, std::int64_t j) { return "C(" + std::to_string(i) + ", " + std::to_string(j) + ")"; }

}  // namespace

CsrMatrix transpose(const CsrMatrix& m) {
    CsrMatrix t;
    t.rows = m.cols;
    t.cols = m.rows;
    t.row_ptr.assign(static_cast<std::size_t>(t.rows) + 1, 0);
    for (const std::int32_t j : m.col) ++t.row_ptr[static_cast<std::size_t>(j) + 1];
    std::partial_sum(t.row_ptr.begin(), t.row_ptr.end(), t.row_ptr.begin());
    t.col.resize(m.col.size());
    t.val.resize(m.val.size());
    std::vector<std::int64_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
    for (std::int64_t i = 0; i < m.rows; ++i)
        for (std::int64_t e = m.row_ptr[static_cast<std::size_t>(i)]; e < m.row_ptr[static_cast<std::size_t>(i) + 1];
             ++e) {
            const auto at =
                static_cast<std::size_t>(next[static_cast<std::size_t>(m.col[static_cast<std::size_t>(e)])]++);
            t.col[at] = static_cast<std::int32_t>(i);
            t.val[at] = m.val[static_cast<std::size_t>(e)];
        }
    return t;
}

std::vector<std::int64_t> row_products(const CsrMatrix& a, const CsrMatrix& b) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(a.rows));
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < a.rows; ++i) {
        std::int64_t n = 0;
        for (std::int64_t e = a.row_ptr[static_cast<std::size_t>(i)]; e < a.row_ptr[static_cast<std::size_t>(i) + 1];
             ++e) {
            const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
            n += b.row_ptr[k + 1] - b.row_ptr[k];
        }
        out[static_cast<std::size_t>(i)] = n;
    }
    return out;
}

void SpgemmOutput::allocate(std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
    c.rows = rows;
    c.cols = cols;
    c.row_ptr.resize(static_cast<std::size_t>(rows) + 1, -1);
    c.col.resize(static_cast<std::size_t>(nnz), -1);
    c.val.resize(static_cast<std::size_t>(nnz), std::numeric_limits<double>::quiet_NaN());
}

void SpgemmOutput::poison() {
    std::fill(c.row_ptr.begin(), c.row_ptr.end(), -1);
    std::fill(c.col.begin(), c.col.end(), -1);
    std::fill(c.val.begin(), c.val.end(), std::numeric_limits<double>::quiet_NaN());
}

SpgemmWorkload::SpgemmWorkload(const SpgemmProblem& p, std::uint64_t seed) : problem_(p), a_(p.a.make(seed)) {
    if (p.op == SpgemmProblem::Op::aat) b_ = transpose(a_);
    if (p.op == SpgemmProblem::Op::ab) b_ = p.b.make(seed ^ kSecondInputSeed);
    if (a_.cols != b().rows)
        throw UsageError("spgemm: A is " + std::to_string(a_.rows) + " x " + std::to_string(a_.cols) + " but B has " +
                         std::to_string(b().rows) + " rows");
    row_products_ = memwall::row_products(a_, b());
}

const ProductStats& SpgemmWorkload::stats() const {
    (void)reference();
    return stats_;
}

// Gustavson with a dense accumulator per thread, in long double, rows sorted; each entry keeps
// its products' absolute sum and count, which bound the rounding any summation order makes.
// Two passes (count, then fill C's final arrays), so the reference never holds C twice.
const SpgemmWorkload::Reference& SpgemmWorkload::reference() const {
    std::call_once(reference_once_, [this] {
        const CsrMatrix& a = a_;
        const CsrMatrix& b = this->b();
        const auto rows = static_cast<std::size_t>(a.rows);
        Reference& r = reference_;
        r.c.rows = a.rows;
        r.c.cols = b.cols;
        r.c.row_ptr.assign(rows + 1, 0);
#pragma omp parallel
        {
            std::vector<std::int64_t> stamp(static_cast<std::size_t>(b.cols), -1);
#pragma omp for schedule(dynamic, 64)
            for (std::size_t i = 0; i < rows; ++i) {
                std::int64_t n = 0;
                for (std::int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
                    const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                    for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f) {
                        std::int64_t& s = stamp[static_cast<std::size_t>(b.col[static_cast<std::size_t>(f)])];
                        if (s != static_cast<std::int64_t>(i)) {
                            s = static_cast<std::int64_t>(i);
                            ++n;
                        }
                    }
                }
                r.c.row_ptr[i + 1] = n;
            }
        }
        std::partial_sum(r.c.row_ptr.begin(), r.c.row_ptr.end(), r.c.row_ptr.begin());
        const auto nnz = static_cast<std::size_t>(r.c.row_ptr.back());
        r.c.col.resize(nnz);
        r.c.val.resize(nnz);
        r.scale.resize(nnz);
        r.terms.resize(nnz);
#pragma omp parallel
        {
            std::vector<long double> acc(static_cast<std::size_t>(b.cols));
            std::vector<double> mag(static_cast<std::size_t>(b.cols));
            std::vector<std::int32_t> count(static_cast<std::size_t>(b.cols), 0);
            std::vector<std::int32_t> touched;
#pragma omp for schedule(dynamic, 64)
            for (std::size_t i = 0; i < rows; ++i) {
                touched.clear();
                for (std::int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
                    const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                    const double av = a.val[static_cast<std::size_t>(e)];
                    for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f) {
                        const auto j = static_cast<std::size_t>(b.col[static_cast<std::size_t>(f)]);
                        const double prod = av * b.val[static_cast<std::size_t>(f)];
                        if (count[j]++ == 0) {
                            touched.push_back(static_cast<std::int32_t>(j));
                            acc[j] = 0;
                            mag[j] = 0;
                        }
                        acc[j] += static_cast<long double>(prod);
                        mag[j] += std::fabs(prod);
                    }
                }
                std::sort(touched.begin(), touched.end());
                auto at = static_cast<std::size_t>(r.c.row_ptr[i]);
                for (const std::int32_t j : touched) {
                    const auto u = static_cast<std::size_t>(j);
                    r.c.col[at] = j;
                    r.c.val[at] = static_cast<double>(acc[u]);
                    r.scale[at] = mag[u];
                    r.terms[at++] = count[u];
                    count[u] = 0;
                }
            }
        }
        stats_.a = csr_stats(a);
        stats_.b = csr_stats(b);
        stats_.products = std::accumulate(row_products_.begin(), row_products_.end(), std::int64_t{0});
        stats_.max_row_products =
            row_products_.empty() ? 0 : *std::max_element(row_products_.begin(), row_products_.end());
        stats_.nnz_c = r.c.nnz();
    });
    return reference_;
}

Check SpgemmWorkload::check(const CsrMatrix& c) const {
    const Reference& ref = reference();
    Check out;
    out.tolerance = 2.0 * std::ldexp(1.0, -52);
    auto fail = [&](std::string why) {
        out.ok = false;
        out.message = std::move(why);
        return out;
    };
    if (c.rows != ref.c.rows || c.cols != ref.c.cols)
        return fail("C is " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + ", expected " +
                    std::to_string(ref.c.rows) + " x " + std::to_string(ref.c.cols));
    if (c.row_ptr.size() != ref.c.row_ptr.size() || c.col.size() != c.val.size())
        return fail("C's arrays have inconsistent sizes");
    if (c.row_ptr.back() != static_cast<std::int64_t>(c.col.size()) || c.row_ptr.front() != 0)
        return fail("C's row pointers do not span its entries");
    double worst = 0;
    std::vector<std::pair<std::int32_t, double>> row;
    for (std::size_t i = 0; i + 1 < ref.c.row_ptr.size(); ++i) {
        const std::int64_t b0 = c.row_ptr[i], b1 = c.row_ptr[i + 1];
        const std::int64_t r0 = ref.c.row_ptr[i], r1 = ref.c.row_ptr[i + 1];
        if (b1 - b0 != r1 - r0 || b0 < 0)
            return fail("row " + std::to_string(i) + " has " + std::to_string(b1 - b0) + " entries, expected " +
                        std::to_string(r1 - r0));
        row.clear();
        for (std::int64_t e = b0; e < b1; ++e)
            row.emplace_back(c.col[static_cast<std::size_t>(e)], c.val[static_cast<std::size_t>(e)]);
        const bool is_sorted =
            std::is_sorted(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        if (problem_.sorted && !is_sorted) return fail("row " + std::to_string(i) + " is not sorted (sorted=1)");
        if (!is_sorted)
            std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        for (std::size_t k = 0; k < row.size(); ++k) {
            const auto e = static_cast<std::size_t>(r0) + k;
            const std::int32_t j = ref.c.col[e];
            if (row[k].first != j)
                return fail("row " + std::to_string(i) + ": column " + std::to_string(row[k].first) +
                            " where the reference has " + std::to_string(j) + " (structure differs)");
            const double v = row[k].second;
            if (!std::isfinite(v)) return fail(entry(static_cast<std::int64_t>(i), j) + " is not finite (unwritten?)");
            const double err = std::fabs(v - ref.c.val[e]);
            const double allowed = (ref.terms[e] + 2.0) * std::ldexp(ref.scale[e], -52);
            if (err > allowed) {
                char buf[160];
                std::snprintf(buf, sizeof buf, " = %.17g, expected %.17g (error %.3g > %.3g)", v, ref.c.val[e], err,
                              allowed);
                return fail(entry(static_cast<std::int64_t>(i), j) + buf);
            }
            if (ref.scale[e] > 0) worst = std::max(worst, err / (ref.scale[e] * (ref.terms[e] + 2.0)));
        }
    }
    out.ok = true;
    out.error = worst;
    out.tolerance = std::ldexp(1.0, -52);
    return out;
}

}  // namespace memwall
