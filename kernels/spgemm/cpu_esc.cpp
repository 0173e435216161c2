// esc: expand, sort, compress. Each row's products are written out (expand), sorted by column
// (sort) and equal columns summed (compress); the symbolic phase does it on columns alone to
// count the row's entries. A thread's buffer holds one row's products, so the expansion stays
// in cache rather than going through memory as a whole-matrix ESC's does. Rows come out sorted.
#include <omp.h>

#include <algorithm>

#include "kernels/spgemm/cpu_kernels.hpp"
#include "kernels/spgemm/cpu_rows.hpp"

namespace memwall::spgemm_cpu {

namespace {

// Insertion sort below this length: most rows of sparse products are short.
constexpr std::size_t kShortRow = 32;

template <class T, class Less>
void sort_row(T* first, T* last, Less less) {
    if (static_cast<std::size_t>(last - first) > kShortRow) {
        std::sort(first, last, less);
        return;
    }
    for (T* i = first + 1; i < last; ++i) {
        T x = *i;
        T* j = i;
        for (; j > first && less(x, *(j - 1)); --j) *j = *(j - 1);
        *j = x;
    }
}

struct Product {
    std::int32_t col;
    double val;
};

class Esc final : public Kernel {
  public:
    Esc(const SpgemmWorkload& w, const Tuning& t) : w_(w), threads_(omp_get_max_threads()) {
        ranges_ = balanced_ranges(w.row_products(), t.rows_per_chunk, threads_);
        const auto& prod = w.row_products();
        const std::int64_t most = prod.empty() ? 0 : *std::max_element(prod.begin(), prod.end());
        per_thread_.resize(static_cast<std::size_t>(threads_));
        for (auto& s : per_thread_) {
            s.cols.resize(static_cast<std::size_t>(most));
            s.products.resize(static_cast<std::size_t>(most));
        }
        counts_.resize(prod.size());
    }

    void symbolic(SpgemmOutput& out) override {
        const CsrMatrix& a = w_.a();
        const CsrMatrix& b = w_.b();
        for_each_row(ranges_, per_thread_, threads_, [&](Scratch& s, std::int64_t i) {
            std::int32_t* buf = s.cols.data();
            std::size_t m = 0;
            for (std::int64_t e = a.row_ptr[static_cast<std::size_t>(i)];
                 e < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++e) {
                const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f)
                    buf[m++] = b.col[static_cast<std::size_t>(f)];
            }
            sort_row(buf, buf + m, [](std::int32_t x, std::int32_t y) { return x < y; });
            counts_[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(std::unique(buf, buf + m) - buf);
        });
        finish_symbolic(counts_, b.cols, out);
    }

    void numeric(SpgemmOutput& out) override {
        const CsrMatrix& a = w_.a();
        const CsrMatrix& b = w_.b();
        for_each_row(ranges_, per_thread_, threads_, [&](Scratch& s, std::int64_t i) {
            Product* buf = s.products.data();
            std::size_t m = 0;
            for (std::int64_t e = a.row_ptr[static_cast<std::size_t>(i)];
                 e < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++e) {
                const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
                const double av = a.val[static_cast<std::size_t>(e)];
                for (std::int64_t f = b.row_ptr[k]; f < b.row_ptr[k + 1]; ++f)
                    buf[m++] = {b.col[static_cast<std::size_t>(f)], av * b.val[static_cast<std::size_t>(f)]};
            }
            sort_row(buf, buf + m, [](const Product& x, const Product& y) { return x.col < y.col; });
            std::int32_t* cols = out.c.col.data() + out.c.row_ptr[static_cast<std::size_t>(i)];
            double* vals = out.c.val.data() + out.c.row_ptr[static_cast<std::size_t>(i)];
            std::int64_t q = -1;
            for (std::size_t p = 0; p < m; ++p) {
                if (q < 0 || cols[q] != buf[p].col) {
                    cols[++q] = buf[p].col;
                    vals[q] = buf[p].val;
                } else {
                    vals[q] += buf[p].val;
                }
            }
        });
    }

    double workspace_bytes() const override {
        return static_cast<double>(threads_) * 20.0 * static_cast<double>(per_thread_.front().cols.size()) +
               8.0 * static_cast<double>(counts_.size());
    }

    std::string detail() const override {
        return "rows sorted (sorting is the method); " + std::to_string(ranges_.size()) +
               " row ranges balanced by products; a row's products expanded into a per-thread buffer";
    }

  private:
    struct Scratch {
        std::vector<std::int32_t> cols;
        std::vector<Product> products;
    };
    const SpgemmWorkload& w_;
    int threads_;
    std::vector<RowRange> ranges_;
    std::vector<Scratch> per_thread_;
    std::vector<std::int64_t> counts_;
};

}  // namespace

std::unique_ptr<Kernel> make_esc(const SpgemmWorkload& w, const Tuning& t) { return std::make_unique<Esc>(w, t); }

}  // namespace memwall::spgemm_cpu
