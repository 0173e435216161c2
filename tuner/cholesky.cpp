#include "tuner/cholesky.hpp"

#include <cmath>
#include <limits>

namespace memwall {

bool cholesky(std::vector<double>& a, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        double d = a[j * n + j];
        for (std::size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
        if (!(d > 0)) return false;
        d = std::sqrt(d);
        a[j * n + j] = d;
        for (std::size_t i = j + 1; i < n; ++i) {
            double s = a[i * n + j];
            for (std::size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s / d;
        }
    }
    return true;
}

void solve_lower(const std::vector<double>& l, std::size_t n, std::vector<double>& b) {
    for (std::size_t i = 0; i < n; ++i) {
        double s = b[i];
        for (std::size_t k = 0; k < i; ++k) s -= l[i * n + k] * b[k];
        b[i] = s / l[i * n + i];
    }
}

void solve_lower_transposed(const std::vector<double>& l, std::size_t n, std::vector<double>& b) {
    for (std::size_t i = n; i-- > 0;) {
        double s = b[i];
        for (std::size_t k = i + 1; k < n; ++k) s -= l[k * n + i] * b[k];
        b[i] = s / l[i * n + i];
    }
}

std::vector<double> solve_spd(std::vector<double> a, std::vector<double> b) {
    const std::size_t n = b.size();
    if (!cholesky(a, n)) return std::vector<double>(n, std::numeric_limits<double>::quiet_NaN());
    solve_lower(a, n, b);
    solve_lower_transposed(a, n, b);
    return b;
}

}  // namespace memwall
