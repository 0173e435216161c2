#include "gui/core/axis_mapping.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace memwall::gui {

AxisMap::AxisMap(double lo, double hi, double p0, double p1, Scale scale)
    : lo_(lo), hi_(hi), p0_(p0), p1_(p1), scale_(scale) {
    if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi))
        throw std::invalid_argument("axis range needs lo < hi, both finite");
    if (scale == Scale::log && !(lo > 0)) throw std::invalid_argument("a log axis needs a positive range");
    if (p0 == p1) throw std::invalid_argument("axis has no pixels");
}

double AxisMap::t(double v) const { return scale_ == Scale::log ? std::log10(v) : v; }
double AxisMap::t_inv(double u) const { return scale_ == Scale::log ? std::pow(10.0, u) : u; }

double AxisMap::to_pixel(double v) const {
    const double u0 = t(lo_), u1 = t(hi_);
    return p0_ + (t(v) - u0) / (u1 - u0) * (p1_ - p0_);
}

double AxisMap::to_value(double p) const {
    const double u0 = t(lo_), u1 = t(hi_);
    return t_inv(u0 + (p - p0_) / (p1_ - p0_) * (u1 - u0));
}

AxisMap AxisMap::with_t_range(double u0, double u1) const { return AxisMap(t_inv(u0), t_inv(u1), p0_, p1_, scale_); }

AxisMap AxisMap::zoomed(double factor, double p) const {
    if (!(factor > 0)) throw std::invalid_argument("zoom factor must be positive");
    const double c = t(to_value(p));
    return with_t_range(c - (c - t(lo_)) / factor, c + (t(hi_) - c) / factor);
}

AxisMap AxisMap::panned(double dp) const {
    const double du = dp / (p1_ - p0_) * (t(hi_) - t(lo_));
    return with_t_range(t(lo_) - du, t(hi_) - du);
}

std::vector<double> AxisMap::ticks(int max_ticks, double min_step) const {
    std::vector<double> out;
    // Less than a decade (a zoom, or times that barely differ) is close to linear: 1-2-5 steps.
    if (scale_ == Scale::log && std::log10(hi_ / lo_) >= 1) {
        const int d0 = static_cast<int>(std::floor(std::log10(lo_)));
        const int d1 = static_cast<int>(std::ceil(std::log10(hi_)));
        const int decades = d1 - d0;
        const int step = std::max(1, (decades + max_ticks - 1) / std::max(1, max_ticks));
        const bool fill = std::log10(hi_ / lo_) < 3;
        for (int d = d0; d <= d1; ++d) {
            const double base = std::pow(10.0, d);
            const double mult[] = {1, 2, 5};
            for (const double m : mult) {
                if (m != 1 && !fill) continue;
                if (m == 1 && (d - d0) % step != 0) continue;
                const double v = base * m;
                if (v >= lo_ * (1 - 1e-9) && v <= hi_ * (1 + 1e-9)) out.push_back(v);
            }
        }
        return out;
    }
    const double span = hi_ - lo_;
    const double raw = span / std::max(1, max_ticks);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * mag;
        if (step >= raw) break;
    }
    step = std::max(step, min_step);
    for (double v = std::ceil(lo_ / step) * step; v <= hi_ + step * 1e-9; v += step)
        out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return out;
}

std::vector<double> AxisMap::minor_ticks() const {
    std::vector<double> out;
    if (scale_ != Scale::log) return out;
    const int d0 = static_cast<int>(std::floor(std::log10(lo_)));
    const int d1 = static_cast<int>(std::ceil(std::log10(hi_)));
    if (d1 - d0 > 12) return out;  // too dense to help
    for (int d = d0; d <= d1; ++d)
        for (int m = 2; m <= 9; ++m) {
            const double v = m * std::pow(10.0, d);
            if (v > lo_ && v < hi_) out.push_back(v);
        }
    return out;
}

PlotMapping PlotMapping::over(const QRectF& frame, double x_lo, double x_hi, double y_lo, double y_hi, Scale x_scale,
                              Scale y_scale) {
    return PlotMapping{AxisMap(x_lo, x_hi, frame.left(), frame.right(), x_scale),
                       AxisMap(y_lo, y_hi, frame.bottom(), frame.top(), y_scale), frame};
}

Range decade_range(double min, double max) {
    if (!(min > 0) || !(max >= min)) throw std::invalid_argument("decade_range needs 0 < min <= max");
    double lo = std::pow(10.0, std::floor(std::log10(min)));
    double hi = std::pow(10.0, std::ceil(std::log10(max)));
    if (hi <= lo) hi = lo * 10;
    return {lo, hi};
}

}  // namespace memwall::gui
