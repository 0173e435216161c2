// Value <-> pixel mappings of the charts, pure so they are tested without painting: linear or
// log10 axes, zoom about a pixel, pan by pixels, and tick values.
#pragma once

#include <vector>

#include <QPointF>
#include <QRectF>

namespace memwall::gui {

enum class Scale { linear, log };

// Values [lo, hi] onto pixels [p0, p1]; p1 < p0 for a y axis that grows upward.
class AxisMap {
  public:
    // Throws std::invalid_argument unless lo < hi (and lo > 0 on a log axis) and p0 != p1.
    AxisMap(double lo, double hi, double p0, double p1, Scale scale);

    double to_pixel(double v) const;
    double to_value(double p) const;

    double lo() const { return lo_; }
    double hi() const { return hi_; }
    Scale scale() const { return scale_; }

    // The range zoomed by `factor` (> 1 zooms in) keeping the value under pixel `p` in place.
    AxisMap zoomed(double factor, double p) const;
    // The range moved so that the content follows the pointer by `dp` pixels.
    AxisMap panned(double dp) const;
    // Tick values inside the range: decades on a log axis (with 2 and 5 when it spans fewer
    // than three), 1-2-5 steps no finer than `min_step` on a linear one or on a log one that
    // spans less than a decade; at most about `max_ticks`.
    std::vector<double> ticks(int max_ticks = 8, double min_step = 0) const;
    // Minor ticks of a log axis: 2..9 times each decade, inside the range; none when linear.
    std::vector<double> minor_ticks() const;

  private:
    double t(double v) const;  // into the space where the mapping is linear
    double t_inv(double u) const;
    AxisMap with_t_range(double u0, double u1) const;

    double lo_, hi_, p0_, p1_;
    Scale scale_;
};

// Both axes of a plot over its frame in pixels.
struct PlotMapping {
    AxisMap x, y;
    QRectF frame;

    static PlotMapping over(const QRectF& frame, double x_lo, double x_hi, double y_lo, double y_hi, Scale x_scale,
                            Scale y_scale);
    QPointF to_pixel(double vx, double vy) const { return {x.to_pixel(vx), y.to_pixel(vy)}; }
    QPointF to_value(const QPointF& p) const { return {x.to_value(p.x()), y.to_value(p.y())}; }
};

// [lo, hi] widened to whole decades around positive data in [min, max], at least one decade.
struct Range {
    double lo, hi;
};
Range decade_range(double min, double max);

}  // namespace memwall::gui
