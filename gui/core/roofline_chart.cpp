#include "gui/core/roofline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include <QFontMetricsF>
#include <QTransform>

#include "gui/core/units.hpp"

namespace memwall::gui {

namespace {

QColor roof_colour(const std::string& name) {
    if (name == "dram") return QColor(178, 34, 34);
    if (name == "llc") return QColor(139, 90, 43);
    if (name == "l2") return QColor(75, 111, 68);
    if (name == "l1") return QColor(47, 79, 127);
    return QColor(20, 20, 20);
}

// A roof's label: text drawn from `at` along `angle` degrees, just above the line.
struct Label {
    QPointF at;
    double angle;
    QString text;
    QColor colour;
};

QRectF label_box(const Label& l, const QFontMetricsF& fm) {
    return QRectF(0, -fm.height() - 3, fm.horizontalAdvance(l.text) + 4, fm.height());
}

// The label's box as placed on the chart.
QPolygonF label_outline(const Label& l, const QFontMetricsF& fm) {
    QTransform t;
    t.translate(l.at.x(), l.at.y());
    t.rotate(l.angle);
    return t.map(QPolygonF(label_box(l, fm)));
}

}  // namespace

QString level_phrase(const std::string& level) {
    if (level.empty()) return QStringLiteral("each case's outermost level");
    if (level == RooflineChart::kEveryLevel) return QStringLiteral("every level (hierarchical)");
    return ceiling_label(level);
}

QString ceiling_label(const std::string& name) {
    if (name == "dram") return QStringLiteral("DRAM");
    if (name == "llc") return QStringLiteral("LLC");
    if (name == "fp32_fma") return QStringLiteral("FP32 FMA");
    if (name == "bf16_tensor") return QStringLiteral("BF16 tensor");
    if (name == "tf32_tensor") return QStringLiteral("TF32 tensor");
    if (name == "compute") return QStringLiteral("compute");  // a bound, not a ceiling
    QString s = QString::fromStdString(name).toUpper();
    s.replace(QLatin1Char('_'), QLatin1Char(' '));
    return s;
}

QString case_tooltip(const CaseRow& r) {
    QStringList lines;
    lines << QStringLiteral("%1/%2/%3  (run %4, case %5)").arg(r.family, r.variant, r.backend).arg(r.run_id).arg(r.id);
    lines << r.params_text;
    lines << QStringLiteral("status: %1%2")
                 .arg(qstr(to_string(r.status)), r.message.isEmpty() ? QString() : " (" + r.message + ")");
    if (!r.timed()) return lines.join(QLatin1Char('\n'));
    const QString time_kind = r.backend == QLatin1String("cuda-emu") ? QStringLiteral(" (emulation time)") : QString();
    lines << QStringLiteral("time: %1 median of %2, IQR %3 – %4%5")
                 .arg(seconds_text(r.median))
                 .arg(r.n_samples)
                 .arg(seconds_text(r.q1), seconds_text(r.q3), time_kind);
    const RooflinePoint& p = r.point;
    if (p.flops > 0) lines << QStringLiteral("achieved: %1").arg(si_unit(p.flops_per_second, QStringLiteral("FLOP/s")));
    for (const RooflineLevel& l : p.levels) {
        lines << QStringLiteral("%1: %2 (%3), %4 FLOP/B  [%5]")
                     .arg(ceiling_label(l.level), si_unit(l.bytes, QStringLiteral("B")), qstr(to_string(l.source)))
                     .arg(l.intensity, 0, 'g', 3)
                     .arg(QString::fromStdString(l.counters));
        for (const RooflineLevel& b : p.beside)
            if (b.level == l.level)
                lines << QStringLiteral("    beside it, %1: %2, %3 FLOP/B")
                             .arg(qstr(to_string(b.source)), si_unit(b.bytes, QStringLiteral("B")))
                             .arg(b.intensity, 0, 'g', 3);
    }
    if (p.valid)
        lines
            << QStringLiteral("bound: %1, %2% of roof").arg(ceiling_label(p.bound)).arg(p.percent_of_bound, 0, 'f', 1);
    return lines.join(QLatin1Char('\n'));
}

void RooflineChart::set_title(const QString& title, const QString& subtitle) {
    title_ = title;
    subtitle_ = subtitle;
}

void RooflineChart::set_ceilings(const Ceilings& c) { ceilings_ = c; }

void RooflineChart::set_level(const std::string& level) { level_ = level; }

std::vector<std::string> RooflineChart::roof_names() const {
    std::vector<std::string> out;
    for (const Ceiling& c : ceilings_.items) out.push_back(c.name);
    return out;
}

void RooflineChart::set_roof_visible(const std::string& name, bool visible) {
    if (visible)
        hidden_.erase(name);
    else
        hidden_.insert(name);
}

void RooflineChart::set_cases(const std::vector<const CaseRow*>& rows) {
    points_.clear();
    unplaced_ = 0;
    std::map<QString, int> series;
    for (const CaseRow* r : rows) series.emplace(r->family + QLatin1Char('/') + r->variant, 0);
    series_.clear();
    for (auto& [name, index] : series) {
        index = static_cast<int>(series_.size());
        series_.push_back(name);
    }
    points_.reserve(rows.size());
    const bool every = level_ == kEveryLevel;
    for (const CaseRow* r : rows) {
        const RooflinePoint& p = r->point;
        const int s = series.at(r->family + QLatin1Char('/') + r->variant);
        const Marker marker = backend_marker(r->backend);
        auto placeable = [&](double intensity) {
            return r->timed() && p.flops_per_second > 0 && intensity > 0 && std::isfinite(intensity);
        };
        if (!every) {
            const RooflineLevel* l =
                level_.empty() ? (p.levels.empty() ? nullptr : &p.levels.front()) : r->level(level_);
            if (!l || !placeable(l->intensity)) {
                ++unplaced_;
                continue;
            }
            points_.push_back(RoofPoint{r, l->intensity, p.flops_per_second, s, marker, l->source, l->level, false});
            continue;
        }
        const std::size_t first = points_.size();
        for (const RooflineLevel& l : p.levels)
            if (placeable(l.intensity))
                points_.push_back(RoofPoint{r, l.intensity, p.flops_per_second, s, marker, l.source, l.level, false});
        if (show_modelled_)
            for (const RooflineLevel& l : p.beside)
                if (placeable(l.intensity))
                    points_.push_back(
                        RoofPoint{r, l.intensity, p.flops_per_second, s, marker, l.source, l.level, true});
        if (points_.size() == first) ++unplaced_;
    }
}

Range RooflineChart::x_range() const {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (const RoofPoint& p : points_) {
        lo = std::min(lo, p.intensity / 2);
        hi = std::max(hi, p.intensity * 2);
    }
    // Over a decade of each slanted roof left of its ridge, so its label has room; the ridges
    // are where the roofs meet the best visible compute roof, as painted.
    double peak = 0;
    for (const Ceiling& c : ceilings_.items)
        if (c.kind == CeilingKind::compute && roof_visible(c.name)) peak = std::max(peak, c.value);
    for (const Ceiling& c : ceilings_.items) {
        if (c.kind != CeilingKind::bandwidth || !roof_visible(c.name) || !(c.value > 0) || !(peak > 0)) continue;
        lo = std::min(lo, peak / c.value / 20);
        hi = std::max(hi, peak / c.value * 4);
    }
    if (!(hi > 0)) return {0.01, 100};
    return decade_range(lo, hi);
}

Range RooflineChart::y_range() const {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (const RoofPoint& p : points_) {
        lo = std::min(lo, p.flops_per_second);
        hi = std::max(hi, p.flops_per_second);
    }
    for (const Ceiling& c : ceilings_.items) {
        if (c.kind != CeilingKind::compute || !roof_visible(c.name) || !(c.value > 0)) continue;
        lo = std::min(lo, c.value / 100);
        hi = std::max(hi, c.value);
    }
    if (!(hi > 0)) return {1e9, 1e12};
    return decade_range(lo / 2, hi * 2);
}

PlotMapping RooflineChart::mapping(const QRectF& area) const {
    const ChartLayout l = chart_layout(area, true);
    if (view_)
        return PlotMapping::over(l.plot, view_->x_lo, view_->x_hi, view_->y_lo, view_->y_hi, Scale::log, Scale::log);
    const Range x = x_range(), y = y_range();
    return PlotMapping::over(l.plot, x.lo, x.hi, y.lo, y.hi, Scale::log, Scale::log);
}

void RooflineChart::set_view(const PlotMapping& m) { view_ = View{m.x.lo(), m.x.hi(), m.y.lo(), m.y.hi()}; }

bool RooflineChart::zoom(double factor, const QPointF& pixel, const QRectF& area) {
    const PlotMapping m = mapping(area);
    set_view(PlotMapping{m.x.zoomed(factor, pixel.x()), m.y.zoomed(factor, pixel.y()), m.frame});
    return true;
}

bool RooflineChart::pan(const QPointF& delta, const QRectF& area) {
    const PlotMapping m = mapping(area);
    set_view(PlotMapping{m.x.panned(delta.x()), m.y.panned(delta.y()), m.frame});
    return true;
}

std::optional<std::size_t> RooflineChart::point_at(const QPointF& pixel, const QRectF& area) const {
    const PlotMapping m = mapping(area);
    if (!m.frame.adjusted(-6, -6, 6, 6).contains(pixel)) return std::nullopt;
    std::optional<std::size_t> best;
    double best_d2 = 7.0 * 7.0;
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const QPointF q = m.to_pixel(points_[i].intensity, points_[i].flops_per_second);
        const double dx = q.x() - pixel.x(), dy = q.y() - pixel.y();
        const double d2 = dx * dx + dy * dy;
        if (d2 <= best_d2) {  // the last drawn (topmost) wins ties
            best_d2 = d2;
            best = i;
        }
    }
    return best;
}

QString RooflineChart::tooltip_at(const QPointF& pixel, const QRectF& area) const {
    const auto i = point_at(pixel, area);
    if (!i) return {};
    const RoofPoint& pt = points_[*i];
    return QStringLiteral("at %1, bytes from %2%3\n")
               .arg(ceiling_label(pt.level), qstr(to_string(pt.source)),
                    pt.beside ? QStringLiteral(" (beside the measured point)") : QString()) +
           case_tooltip(*pt.row);
}

std::optional<std::int64_t> RooflineChart::case_at(const QPointF& pixel, const QRectF& area) const {
    const auto i = point_at(pixel, area);
    if (!i) return std::nullopt;
    return points_[*i].row->id;
}

namespace {

std::size_t measured_points(const std::vector<RoofPoint>& points) {
    std::size_t measured = 0;
    for (const RoofPoint& pt : points) measured += pt.source != CounterSource::model;
    return measured;
}

// The line under the title: what places the points and how many come from measured bytes.
QString plot_note(const RooflineChart& chart, const QString& subtitle, const std::string& level) {
    const std::vector<RoofPoint>& points = chart.points();
    const std::size_t measured = measured_points(points);
    std::set<const CaseRow*> cases;
    for (const RoofPoint& pt : points) cases.insert(pt.row);
    QStringList note;
    if (!subtitle.isEmpty()) note << subtitle;
    note << QStringLiteral("x at %1").arg(level_phrase(level));
    if (level == RooflineChart::kEveryLevel)
        note << QStringLiteral("%1 cases, %2 points: %3 from measured bytes, %4 modelled")
                    .arg(cases.size())
                    .arg(points.size())
                    .arg(measured)
                    .arg(points.size() - measured);
    else
        note << QStringLiteral("%1 cases: %2 with measured bytes, %3 modelled")
                    .arg(points.size())
                    .arg(measured)
                    .arg(points.size() - measured);
    if (chart.unplaced() > 0)
        note << QStringLiteral("%1 not placed (untimed or no bytes at this level)").arg(chart.unplaced());
    return note.join(QStringLiteral(" · "));
}

// The best visible compute ceiling, which caps every bandwidth roof; 0 when there is none.
double compute_peak(const RooflineChart& chart) {
    double peak = 0;
    for (const Ceiling& c : chart.ceilings().items)
        if (c.kind == CeilingKind::compute && chart.roof_visible(c.name)) peak = std::max(peak, c.value);
    return peak;
}

struct BandwidthRoofs {
    bool any = false;
    double first_ridge = 0;  // the leftmost ridge, where the compute peak's roof starts
};

// Each visible bandwidth roof, capped at `peak`, with its label where one fits.
BandwidthRoofs paint_bandwidth_roofs(QPainter& p, const PlotMapping& m, const RooflineChart& chart, double peak,
                                     std::vector<Label>& labels) {
    const double x_lo = m.x.lo(), x_hi = m.x.hi();
    BandwidthRoofs roofs{false, x_lo};
    for (const Ceiling& c : chart.ceilings().items) {
        if (c.kind != CeilingKind::bandwidth || !chart.roof_visible(c.name) || !(c.value > 0)) continue;
        const QColor colour = roof_colour(c.name);
        p.setPen(QPen(colour, 2));
        QPolygonF line;
        double ridge = x_hi;
        if (peak > 0) {
            const RoofSegment s = roof_polyline(c.value, peak, x_lo, x_hi);
            line << m.to_pixel(s.x0, s.y0) << m.to_pixel(s.ridge_x, s.ridge_y) << m.to_pixel(s.x1, s.y1);
            ridge = s.ridge_x;
            roofs.first_ridge = roofs.any ? std::min(roofs.first_ridge, ridge) : ridge;
        } else {
            line << m.to_pixel(x_lo, c.value * x_lo) << m.to_pixel(x_hi, c.value * x_hi);
        }
        roofs.any = true;
        p.drawPolyline(line);
        // The label rides the slanted part of the roof, at the first place along its visible
        // stretch where it clears the labels already placed; roofs of nearly equal bandwidth
        // may leave no such place, and then the legend alone names it.
        const double enter = std::max(x_lo, m.y.lo() / c.value), leave = std::min(ridge, m.y.hi() / c.value);
        if (enter < leave) {
            const QString text = ceiling_label(c.name) + QStringLiteral("  ") + si_unit(c.value, QStringLiteral("B/s"));
            const QFontMetricsF fm(chart_font(12, true));
            for (const double f : {0.15, 0.5, 0.3, 0.7, 0.05}) {
                const double xa = enter * std::pow(leave / enter, f);
                const QPointF a = m.to_pixel(xa, c.value * xa), b = m.to_pixel(xa * 1.5, c.value * xa * 1.5);
                const double angle = std::atan2(b.y() - a.y(), b.x() - a.x()) * 180 / M_PI;
                const Label candidate{a, angle, text, colour};
                const QPolygonF outline = label_outline(candidate, fm);
                const bool clear = std::none_of(labels.begin(), labels.end(), [&](const Label& l) {
                    return label_outline(l, fm).intersects(outline);
                });
                if (clear) {
                    labels.push_back(candidate);
                    break;
                }
            }
        }
    }
    return roofs;
}

// Each visible compute roof, the peak's from the leftmost ridge and the lower ones dashed.
void paint_compute_roofs(QPainter& p, const PlotMapping& m, const RooflineChart& chart, double peak,
                         const BandwidthRoofs& bandwidth, std::vector<Label>& labels) {
    const double x_lo = m.x.lo(), x_hi = m.x.hi();
    for (const Ceiling& c : chart.ceilings().items) {
        if (c.kind != CeilingKind::compute || !chart.roof_visible(c.name) || !(c.value > 0)) continue;
        const double from = bandwidth.any && c.value >= peak ? bandwidth.first_ridge : x_lo;
        p.setPen(QPen(roof_colour(c.name), 2, c.value >= peak ? Qt::SolidLine : Qt::DashLine));
        p.drawLine(m.to_pixel(from, c.value), m.to_pixel(x_hi, c.value));
        const QFontMetricsF fm(chart_font(12, true));
        const QString text = ceiling_label(c.name) + QStringLiteral("  ") + si_unit(c.value, QStringLiteral("FLOP/s"));
        const QPointF end = m.to_pixel(x_hi, c.value);
        labels.push_back({QPointF(end.x() - fm.horizontalAdvance(text) - 8, end.y()), 0, text, roof_colour(c.name)});
    }
}

void paint_arrows(QPainter& p, const PlotMapping& m, const std::vector<RoofArrow>& arrows) {
    for (const RoofArrow& a : arrows) {
        const QPointF from = m.to_pixel(a.x0, a.y0), to = m.to_pixel(a.x1, a.y1);
        p.setPen(QPen(a.colour, 1.5));
        p.drawLine(from, to);
        const double len = std::hypot(to.x() - from.x(), to.y() - from.y());
        if (len < 2) continue;
        const double ux = (to.x() - from.x()) / len, uy = (to.y() - from.y()) / len;
        const double head = std::min(9.0, len * 0.6);
        p.setBrush(a.colour);
        p.drawPolygon(
            QPolygonF({to, QPointF(to.x() - head * ux + head * 0.45 * uy, to.y() - head * uy - head * 0.45 * ux),
                       QPointF(to.x() - head * ux - head * 0.45 * uy, to.y() - head * uy + head * 0.45 * ux)}));
    }
}

// The cases: each one's levels joined, its markers, and a ring around the selected case's.
void paint_points(QPainter& p, const PlotMapping& m, const std::vector<RoofPoint>& points,
                  std::optional<std::int64_t> selected_case) {
    // A case's levels joined outermost to innermost; the model's points beside them, dashed.
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        const RoofPoint &a = points[i], &b = points[i + 1];
        if (a.row != b.row || a.beside != b.beside) continue;
        QColor c = series_colour(a.series);
        c.setAlpha(150);
        p.setPen(QPen(c, 1, a.beside ? Qt::DashLine : Qt::SolidLine));
        p.drawLine(m.to_pixel(a.intensity, a.flops_per_second), m.to_pixel(b.intensity, b.flops_per_second));
    }

    const double size = points.size() > 20000 ? 5 : 8;
    std::vector<const RoofPoint*> selected;
    // A marker already drawn at the same pixel in the same style adds nothing: large runs
    // pile thousands of cases onto few pixels.
    std::unordered_set<std::uint64_t> drawn;
    for (const RoofPoint& pt : points) {
        if (selected_case && pt.row->id == *selected_case) selected.push_back(&pt);
        const QPointF at = m.to_pixel(pt.intensity, pt.flops_per_second);
        if (!m.frame.adjusted(-size, -size, size, size).contains(at)) continue;
        const bool filled = pt.source != CounterSource::model;
        const auto key = (static_cast<std::uint64_t>(std::lround(at.x()) & 0xfffff) << 44) |
                         (static_cast<std::uint64_t>(std::lround(at.y()) & 0xfffff) << 24) |
                         (static_cast<std::uint64_t>(pt.series & 0xfff) << 12) |
                         (static_cast<std::uint64_t>(pt.marker) << 1) | (filled ? 1u : 0u);
        if (drawn.insert(key).second) draw_marker(p, at, pt.marker, series_colour(pt.series), filled, size);
    }
    for (const RoofPoint* pt : selected) {
        p.setPen(QPen(Qt::black, 2));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(m.to_pixel(pt->intensity, pt->flops_per_second), 9, 9);
    }
}

// The roofs' labels, over the points so that they stay legible.
void paint_labels(QPainter& p, const std::vector<Label>& labels) {
    p.setFont(chart_font(12, true));
    const QFontMetricsF fm(p.font());
    for (const Label& l : labels) {
        p.save();
        p.translate(l.at);
        p.rotate(l.angle);
        const QRectF box = label_box(l, fm);
        p.fillRect(box, QColor(255, 255, 255, 200));
        p.setPen(l.colour);
        p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, l.text);
        p.restore();
    }
}

// Variants, backends, where the bytes come from, the ceilings, then the caller's entries.
std::vector<LegendEntry> roofline_legend(const RooflineChart& chart, const std::vector<LegendEntry>& extra) {
    const std::vector<RoofPoint>& points = chart.points();
    const std::size_t measured = measured_points(points);
    std::vector<LegendEntry> legend;
    legend.push_back({LegendEntry::Kind::heading, QStringLiteral("Variant")});
    for (std::size_t i = 0; i < chart.series().size(); ++i)
        legend.push_back(
            {LegendEntry::Kind::marker, chart.series()[i], series_colour(static_cast<int>(i)), Marker::circle, true});
    std::set<QString> backends;
    for (const RoofPoint& pt : points) backends.insert(pt.row->backend);
    if (!backends.empty()) legend.push_back({LegendEntry::Kind::heading, QStringLiteral("Backend")});
    for (const QString& b : backends)
        legend.push_back({LegendEntry::Kind::marker, b, QColor(70, 70, 70), backend_marker(b), true});
    legend.push_back({LegendEntry::Kind::heading, QStringLiteral("Bytes from")});
    if (measured > 0 || points.empty())
        legend.push_back({LegendEntry::Kind::marker, QStringLiteral("counters (perf/emu/cupti)"), QColor(70, 70, 70),
                          Marker::circle, true});
    if (measured < points.size() || points.empty())
        legend.push_back(
            {LegendEntry::Kind::marker, QStringLiteral("model (analytic)"), QColor(70, 70, 70), Marker::circle, false});
    const Ceilings& ceilings = chart.ceilings();
    if (!ceilings.empty()) {
        legend.push_back({LegendEntry::Kind::heading, QStringLiteral("Ceilings (measured)")});
        for (const Ceiling& c : ceilings.items) {
            if (!chart.roof_visible(c.name)) continue;
            legend.push_back({LegendEntry::Kind::line,
                              ceiling_label(c.name) + QStringLiteral(" ") +
                                  si_unit(c.value, c.kind == CeilingKind::compute ? QStringLiteral("FLOP/s")
                                                                                  : QStringLiteral("B/s")) +
                                  (c.reliable() ? QString() : QStringLiteral(" (unreliable)")),
                              roof_colour(c.name)});
        }
    }
    legend.insert(legend.end(), extra.begin(), extra.end());
    return legend;
}

}  // namespace

void RooflineChart::paint(QPainter& p, const QRectF& area) const {
    const ChartLayout layout = chart_layout(area, true);
    const PlotMapping m = mapping(area);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    draw_background(p, area);
    draw_title(p, layout.title, title_, plot_note(*this, subtitle_, level_));

    const QString x_title = level_.empty()
                                ? QStringLiteral("Arithmetic intensity (FLOP/byte)")
                                : QStringLiteral("Arithmetic intensity at %1 (FLOP/byte)").arg(ceiling_label(level_));
    draw_axes(p, m, x_title, QStringLiteral("Performance (FLOP/s)"), tick_text,
              [](double v) { return si(v, 3).trimmed(); });

    p.save();
    p.setClipRect(m.frame);
    std::vector<Label> labels;
    const double peak = compute_peak(*this);
    const BandwidthRoofs bandwidth = paint_bandwidth_roofs(p, m, *this, peak, labels);
    paint_compute_roofs(p, m, *this, peak, bandwidth, labels);
    paint_arrows(p, m, arrows_);
    paint_points(p, m, points_, selected_);
    paint_labels(p, labels);
    if (points_.empty())
        draw_note(p, m.frame,
                  ceilings_.empty() ? QStringLiteral("no timed cases and no ceilings")
                                    : QStringLiteral("no timed case has bytes at %1").arg(level_phrase(level_)));
    else if (ceilings_.empty())
        draw_note(p, QRectF(m.frame.left(), m.frame.top(), m.frame.width(), 40),
                  QStringLiteral("this run has no ceilings: roofs not drawn"));
    p.restore();

    draw_legend(p, layout.legend, roofline_legend(*this, extra_legend_));
    p.restore();
}

}  // namespace memwall::gui
