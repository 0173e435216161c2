#include "kernels/kit/output_check.hpp"

#include <cstdio>
#include <limits>

namespace memwall::kit {

Check not_finite(const std::string& what, double value, double tolerance) {
    Check c;
    c.tolerance = tolerance;
    c.error = std::numeric_limits<double>::infinity();
    char v[32];
    std::snprintf(v, sizeof v, "%g", value);
    c.message = what + " is " + v + ": not written or not finite";
    return c;
}

Check RelativeL2::result(double tolerance, const std::string& over) const {
    Check c;
    c.tolerance = tolerance;
    c.error = norm_ > 0 ? std::sqrt(err_ / norm_) : std::sqrt(err_);
    c.ok = c.error < tolerance;
    if (!c.ok) {
        char msg[128];
        std::snprintf(msg, sizeof msg, "relative L2 error %.3g%s%s exceeds %.3g", c.error, over.empty() ? "" : " ",
                      over.c_str(), tolerance);
        c.message = msg;
    }
    return c;
}

}  // namespace memwall::kit
