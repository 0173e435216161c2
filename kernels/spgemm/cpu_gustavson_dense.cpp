// gustavson_dense: Gustavson's row-by-row product with a dense accumulator per thread (a value
// and a row stamp per column of B), so each product is one random access; rows come out in
// first-touch order, sorted on request.
#include <omp.h>

#include <algorithm>

#include "kernels/spgemm/cpu_kernels.hpp"
#include "kernels/spgemm/cpu_rows.hpp"

namespace memwall::spgemm_cpu {

namespace {

class GustavsonDense final : public Kernel {
  public:
    GustavsonDense(const SpgemmWorkload& w, const Tuning& t) : w_(w), threads_(omp_get_max_threads()) {
        ranges_ = balanced_ranges(w.row_products(), t.rows_per_chunk, threads_);
        const auto cols = static_cast<std::size_t>(w.b().cols);
        per_thread_.resize(static_cast<std::size_t>(threads_));
        for (auto& s : per_thread_) {
            s.acc.resize(cols);
            s.stamp.assign(cols, -1);
        }
        counts_.resize(static_cast<std::size_t>(w.a().rows));
    }

    void symbolic(SpgemmOutput& out) override {
        const CsrMatrix& a = w_.a();
        const CsrMatrix& b = w_.b();
        for_each_row(ranges_, per_thread_, threads_, [&](Scratch& scratch, std::int64_t i) {
            std::vector<std::int64_t>& stamp = scratch.stamp;
            std::int64_t count = 0;
            for (std::int64_t e = a.row_ptr[static_cast<std::size_t>(i)];
                 e < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++e) {
                const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f) {
                    std::int64_t& s = stamp[static_cast<std::size_t>(b.col[static_cast<std::size_t>(f)])];
                    if (s != i) {
                        s = i;
                        ++count;
                    }
                }
            }
            counts_[static_cast<std::size_t>(i)] = count;
        });
        finish_symbolic(counts_, b.cols, out);
    }

    void numeric(SpgemmOutput& out) override {
        const CsrMatrix& a = w_.a();
        const CsrMatrix& b = w_.b();
        const bool sorted = w_.problem().sorted;
        // Stamps continue past the symbolic phase's row numbers: rows + i marks row i here.
        const std::int64_t base = a.rows;
        for_each_row(ranges_, per_thread_, threads_, [&](Scratch& s, std::int64_t i) {
            const std::int64_t mark = base + i;
            std::int32_t* cols = out.c.col.data() + out.c.row_ptr[static_cast<std::size_t>(i)];
            std::int64_t count = 0;
            for (std::int64_t e = a.row_ptr[static_cast<std::size_t>(i)];
                 e < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++e) {
                const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                const double av = a.val[static_cast<std::size_t>(e)];
                for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f) {
                    const std::int32_t j = b.col[static_cast<std::size_t>(f)];
                    const double p = av * b.val[static_cast<std::size_t>(f)];
                    if (s.stamp[static_cast<std::size_t>(j)] != mark) {
                        s.stamp[static_cast<std::size_t>(j)] = mark;
                        s.acc[static_cast<std::size_t>(j)] = p;
                        cols[count++] = j;
                    } else {
                        s.acc[static_cast<std::size_t>(j)] += p;
                    }
                }
            }
            if (sorted) std::sort(cols, cols + count);
            double* vals = out.c.val.data() + out.c.row_ptr[static_cast<std::size_t>(i)];
            for (std::int64_t q = 0; q < count; ++q) vals[q] = s.acc[static_cast<std::size_t>(cols[q])];
        });
        // The next run's symbolic phase starts its stamps at 0 again: clear them.
#pragma omp parallel num_threads(threads_)
        {
            auto& stamp = per_thread_[static_cast<std::size_t>(omp_get_thread_num())].stamp;
            std::fill(stamp.begin(), stamp.end(), -1);
        }
    }

    double workspace_bytes() const override {
        return static_cast<double>(threads_) * static_cast<double>(w_.b().cols) * 16.0 +
               8.0 * static_cast<double>(counts_.size());
    }

    std::string detail() const override {
        return std::string("rows ") + (w_.problem().sorted ? "sorted" : "in first-touch order (unsorted)") + "; " +
               std::to_string(ranges_.size()) + " row ranges balanced by products; dense accumulator of " +
               std::to_string(w_.b().cols) + " columns per thread";
    }

  private:
    struct Scratch {
        std::vector<double> acc;
        std::vector<std::int64_t> stamp;
    };
    const SpgemmWorkload& w_;
    int threads_;
    std::vector<RowRange> ranges_;
    std::vector<Scratch> per_thread_;
    std::vector<std::int64_t> counts_;
};

}  // namespace

std::unique_ptr<Kernel> make_gustavson_dense(const SpgemmWorkload& w, const Tuning& t) {
    return std::make_unique<GustavsonDense>(w, t);
}

}  // namespace memwall::spgemm_cpu
