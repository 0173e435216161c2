// Dense Cholesky factorisation and triangular solves for the tuner's small symmetric positive
// definite systems (a regression's normal equations, a Gaussian process's covariance), row-major.
#pragma once

#include <cstddef>
#include <vector>

namespace memwall {

// In place: the lower Cholesky factor of the n x n matrix a; false when a is not positive definite.
bool cholesky(std::vector<double>& a, std::size_t n);
// Solves L x = b in place, L lower triangular.
void solve_lower(const std::vector<double>& l, std::size_t n, std::vector<double>& b);
// Solves L^T x = b in place.
void solve_lower_transposed(const std::vector<double>& l, std::size_t n, std::vector<double>& b);
// Solves a x = b for a symmetric positive definite n x n `a`; NaN where `a` is not positive definite.
std::vector<double> solve_spd(std::vector<double> a, std::vector<double> b);

}  // namespace memwall
