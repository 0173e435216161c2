// The check every family gives a dense output: each element finite (outputs are poisoned with
// NaN before the checked run, so an element no thread wrote shows here), then the relative L2
// error against the float64 reference under the family's tolerance.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>

#include "core/catalogue.hpp"

namespace memwall::kit {

// The first i < size whose value(i) is not finite, or size when every one is.
template <class Value>
std::size_t first_not_finite(std::size_t size, Value value) {
    for (std::size_t i = 0; i < size; ++i)
        if (!std::isfinite(static_cast<double>(value(i)))) return i;
    return size;
}

// The failed check of an element that is not finite: `what` names it ("Y[3][5]"), then its
// value, "not written or not finite".
Check not_finite(const std::string& what, double value, double tolerance);

// Sums of squares of the output's error and of the reference, element by element.
class RelativeL2 {
  public:
    void add(double out, double ref) {
        const double d = out - ref;
        err_ += d * d;
        norm_ += ref * ref;
    }
    // The check: error √(Σ(out − ref)² / Σref²), absolute where the reference is all zero; ok
    // below the tolerance, else the message says by how much ("relative L2 error 0.1 exceeds
    // 0.001", with `over` after the error when given: "over 12 reference rows").
    Check result(double tolerance, const std::string& over = "") const;

  private:
    double err_ = 0, norm_ = 0;
};

}  // namespace memwall::kit
